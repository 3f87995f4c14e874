import GeoCore

/// The delivered fixes of a ``FeedSimulation``, generated as they are read.
///
/// ``epochs`` reads the same feed as plain values, to be made into fixes
/// with ``update(_:to:)`` elsewhere: `generate` simulates on one thread and
/// hands the epochs to another, which makes the fixes and encodes them.
public struct SimulatedFeed: Sequence, Sendable {
    private let simulation: FeedSimulation
    // Read by the inlinable update(_:to:), which generate calls for every epoch.
    @usableFromInline let devices: [DeviceID?]
    @usableFromInline let accuracy: Double?
    @usableFromInline let hdop: Double?

    init(simulation: FeedSimulation) {
        self.simulation = simulation
        devices = simulation.devices.map { $0.name.map(DeviceID.init) }
        accuracy = simulation.errorModel.accuracy
        hdop = simulation.errorModel.hdop
    }

    /// The feed's epochs, in delivery order: one per fix, without the
    /// device's name, accuracy and HDOP that ``update(_:to:)`` adds.
    public var epochs: Epochs { Epochs(simulation: simulation) }

    /// Makes `fix` the fix `epoch` reports (one of this feed's
    /// ``epochs``), reusing its storage: ``SimulatedEpoch/valid`` says
    /// whether the epoch is valid. `generate` makes a million fixes a
    /// second this way, one `Fix` for them all.
    @inlinable
    public func update(_ fix: inout Fix, to epoch: SimulatedEpoch) {
        fix.time = Timestamp(nanoseconds: epoch.nanoseconds, fractionDigits: epoch.fractionDigits)
        fix.coordinate = epoch.coordinate
        fix.elevation = nil
        fix.speed = epoch.speed
        fix.course = epoch.course
        fix.hdop = hdop
        fix.accuracy = accuracy
        fix.deviceID = devices[epoch.device]
    }

    /// Reads the fixes one by one.
    public struct Iterator: IteratorProtocol {
        private let feed: SimulatedFeed
        private var epochs: Epochs.Iterator
        private var fix = Fix(time: nil, coordinate: Coordinate(latitude: 0, longitude: 0))

        fileprivate init(_ feed: SimulatedFeed) {
            self.feed = feed
            epochs = feed.epochs.makeIterator()
        }

        /// The next delivered fix, or `nil` at the end of the feed.
        public mutating func next() -> SimulatedFix? {
            guard let epoch = epochs.next() else { return nil }
            feed.update(&fix, to: epoch)
            return SimulatedFix(fix: fix, valid: epoch.valid)
        }
    }

    /// A fresh read from the first fix.
    public func makeIterator() -> Iterator { Iterator(self) }

    /// A ``SimulatedFeed``'s epochs, generated as they are read.
    public struct Epochs: Sequence, Sendable {
        fileprivate let simulation: FeedSimulation

        /// Reads the epochs one by one.
        public struct Iterator: IteratorProtocol {
            private var merge: DeviceMerge<DeviceDelivery>

            fileprivate init(_ simulation: FeedSimulation) {
                let streams = DeviceRandomStreams.devices(simulation.devices.count, seed: simulation.seed)
                let deliveries = zip(simulation.devices.indices, streams).map { device, streams in
                    let sampler = DeviceSampler(
                        device: device, path: simulation.devices[device].path, errorModel: simulation.errorModel,
                        delivery: simulation.delivery, streams: streams)
                    return DeviceDelivery(sampler: sampler, delivery: simulation.delivery, streams: streams)
                }
                merge = DeviceMerge(deliveries) { $0.time }
            }

            /// The next delivered epoch, or `nil` at the end of the feed.
            public mutating func next() -> SimulatedEpoch? {
                merge.next()?.element.epoch
            }
        }

        /// A fresh read from the first epoch.
        public func makeIterator() -> Iterator { Iterator(simulation) }
    }
}

/// One delivered fix of a ``SimulatedFeed`` as plain values, nothing
/// reference-counted: cheap to copy, and to hand from thread to thread.
/// ``SimulatedFeed/update(_:to:)`` adds the device's name and the error
/// model's accuracy and HDOP.
public struct SimulatedEpoch: Sendable {
    /// The index of the device in ``FeedSimulation/devices``.
    public let device: Int
    /// When the fix was taken, in nanoseconds since 1970.
    public let nanoseconds: Int64
    /// The fraction digits that show the time (``Timestamp/fractionDigits``).
    public let fractionDigits: UInt8
    /// The noisy position.
    public let coordinate: Coordinate
    /// The true speed of the leg, metres per second.
    public let speed: Double?
    /// The true course of the leg, degrees.
    public let course: Double?
    /// `false` during a cold start.
    public let valid: Bool
}
