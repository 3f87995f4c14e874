import GeoCore

/// The independent random streams of one device, derived from the
/// simulation's seed.
///
/// A master SplitMix64 seeded with the seed gives one sub-seed per device,
/// in device order; each device's generator then gives one seed per
/// purpose, in the order of the properties below. Adding a device, or a
/// purpose at the end, leaves every existing stream as it was; and
/// switching one artefact on or off leaves the others' draws unchanged.
struct DeviceRandomStreams {
    /// Bias and jitter.
    var gaussianError: SplitMix64
    /// Which fixes are outliers, and their direction.
    var outliers: SplitMix64
    /// Which fixes are dropped.
    var dropout: SplitMix64
    /// Which fixes are delivered twice.
    var duplicates: SplitMix64
    /// How long each fix's delivery is delayed.
    var reorder: SplitMix64

    /// The streams of `count` devices from `seed`.
    static func devices(_ count: Int, seed: UInt64) -> [DeviceRandomStreams] {
        var master = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            var device = SplitMix64(seed: master.next())
            return DeviceRandomStreams(
                gaussianError: SplitMix64(seed: device.next()), outliers: SplitMix64(seed: device.next()),
                dropout: SplitMix64(seed: device.next()), duplicates: SplitMix64(seed: device.next()),
                reorder: SplitMix64(seed: device.next()))
        }
    }
}
