import GeoCore

/// A seeded GPS feed and its ground truth: devices moving along true
/// paths, seen through an error model and a delivery model.
///
/// Pure and repeatable: the same devices, models and seed give the same
/// fixes, in the same order, on every machine; nothing reads a clock or a
/// file. Both sequences are generated as they are iterated, holding one
/// path cursor per device and the reorder buffer, so memory does not grow
/// with the feed's length; iterate as often as needed.
///
/// ```swift
/// let path = try TimedPath.following(route, speed: MotionProfile.walk.speed, from: start)
/// let simulation = try FeedSimulation(
///     devices: SimulatedDevice.numbered(2, following: path), errorModel: Environment.urban.errorModel,
///     delivery: DeliverySettings(interval: 5, dropout: 0.05), seed: 1)
/// for delivered in simulation.fixes() { … }            // dev1 and dev2, noisy
/// for point in try simulation.truth(interval: 1) { … } // where they really were
/// ```
public struct FeedSimulation: Sendable {
    /// The devices, in the order their streams are seeded and ties are broken.
    public let devices: [SimulatedDevice]
    /// The error of every device's fixes.
    public let errorModel: ErrorModel
    /// Sampling and delivery, for every device.
    public let delivery: DeliverySettings
    /// The seed of every random stream (`--seed`).
    public let seed: UInt64

    /// A simulation of `devices`.
    ///
    /// Each device has its own random streams derived from `seed`
    /// (error, outliers, dropout, duplicates, reorder), so adding a device
    /// does not change the fixes of the others.
    /// - Throws: ``SimulationError/invalidValue(_:_:)`` naming `--devices`
    ///   for no device, or two devices with the same name;
    ///   ``SimulationError/pastLatestTime`` when a fix could be stamped or
    ///   delivered past ``TimedPath/latestEnd``.
    public init(
        devices: [SimulatedDevice], errorModel: ErrorModel = Environment.errorFree.errorModel,
        delivery: DeliverySettings, seed: UInt64
    ) throws(SimulationError) {
        guard !devices.isEmpty else { throw .invalidValue("--devices", "must be 1 or more") }
        var names = Set<String?>()
        for device in devices where !names.insert(device.name).inserted {
            throw .invalidValue("--devices", "must have distinct names; \(device.name ?? "an unnamed device") appears twice")
        }
        // A fix's time, and its delivery's, can pass the path's end by an
        // interval, the cold start and the reorder delay (each up to 10⁹ s).
        let reach = (delivery.interval + delivery.coldStart + delivery.reorder) * 1e9
        for device in devices
        where Double(device.path.end.nanoseconds) + reach >= Double(TimedPath.latestEnd.nanoseconds) {
            throw .pastLatestTime
        }
        self.devices = devices
        self.errorModel = errorModel
        self.delivery = delivery
        self.seed = seed
    }

    /// The delivered fixes of every device, in delivery order, devices in
    /// their order where fixes arrive at the same time.
    ///
    /// For each device: a sample at every multiple of the interval from the
    /// grid's anchor (``DeliverySettings/start``, else the device's path
    /// start) that lies within the path, carrying the true speed and course
    /// of the leg and the model's accuracy and HDOP, displaced by the
    /// modelled error; then dropouts and gaps removed, cold-start epochs
    /// marked invalid, deliveries delayed and repeated. Without reordering
    /// the delivery order is time order.
    public func fixes() -> SimulatedFeed {
        SimulatedFeed(simulation: self)
    }

    /// The error-free positions of every device (`--truth`): each path
    /// every `interval` seconds from its start and at each of its vertices
    /// (so every stop boundary), every time written once; in time order,
    /// devices in their order at equal times. The fixes carry time,
    /// position and device only. `evaluate` interpolates linearly between
    /// truth points, so a short interval (seconds) keeps that close to the
    /// great-circle legs.
    /// - Throws: ``SimulationError/invalidValue(_:_:)`` naming
    ///   `--truth-interval` for an interval that is not positive or longer
    ///   than 10⁹ s.
    public func truth(interval: Double = 1) throws(SimulationError) -> TruthTrack {
        try checkDuration(interval, "--truth-interval", zeroAllowed: false)
        return TruthTrack(devices: devices, interval: interval)
    }
}

/// The true positions of a ``FeedSimulation``'s devices, generated as they
/// are read.
public struct TruthTrack: Sequence, Sendable {
    fileprivate let devices: [SimulatedDevice]
    fileprivate let interval: Double

    /// Reads the truth one point at a time.
    public struct Iterator: IteratorProtocol {
        private var merge: DeviceMerge<TruthSampler>

        fileprivate init(_ track: TruthTrack) {
            merge = DeviceMerge(track.devices.map { TruthSampler(device: $0, interval: track.interval) }) {
                $0.time!.nanoseconds
            }
        }

        /// The next true position, or `nil` after the last.
        public mutating func next() -> Fix? { merge.next()?.element }
    }

    /// A fresh read from the first point.
    public func makeIterator() -> Iterator { Iterator(self) }
}
