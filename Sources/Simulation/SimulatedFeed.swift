import GeoCore

/// The delivered fixes of a ``FeedSimulation``, generated as they are read.
///
/// ``epochs`` reads the same feed as plain values, to be made into fixes
/// with ``fix(_:)`` elsewhere: `generate` simulates on one thread and hands
/// the epochs to another, which makes the fixes and encodes them.
public struct SimulatedFeed: Sequence, Sendable {
    private let simulation: FeedSimulation
    private let names: [String?]
    private let accuracy: Double?
    private let hdop: Double?

    init(simulation: FeedSimulation) {
        self.simulation = simulation
        names = simulation.devices.map(\.name)
        accuracy = simulation.errorModel.accuracy
        hdop = simulation.errorModel.hdop
    }

    /// The feed's epochs, in delivery order: one per fix, without the
    /// device's name, accuracy and HDOP that ``fix(_:)`` adds.
    public var epochs: Epochs { Epochs(simulation: simulation) }

    /// The fix of `epoch`, one of this feed's ``epochs``.
    public func fix(_ epoch: SimulatedEpoch) -> SimulatedFix {
        let sample = epoch.sample
        let fix = Fix(
            time: Timestamp(nanoseconds: sample.time, fractionDigits: sample.fractionDigits), coordinate: sample.coordinate,
            speed: sample.motion.speed, course: sample.motion.course, hdop: hdop, accuracy: accuracy,
            device: names[epoch.device])
        return SimulatedFix(fix: fix, valid: sample.valid)
    }

    /// Reads the fixes one by one.
    public struct Iterator: IteratorProtocol {
        private let feed: SimulatedFeed
        private var epochs: Epochs.Iterator

        fileprivate init(_ feed: SimulatedFeed) {
            self.feed = feed
            epochs = feed.epochs.makeIterator()
        }

        /// The next delivered fix, or `nil` at the end of the feed.
        public mutating func next() -> SimulatedFix? { epochs.next().map(feed.fix) }
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
                let deliveries = zip(simulation.devices, streams).map { device, streams in
                    let sampler = DeviceSampler(
                        path: device.path, errorModel: simulation.errorModel, delivery: simulation.delivery,
                        streams: streams)
                    return DeviceDelivery(sampler: sampler, delivery: simulation.delivery, streams: streams)
                }
                merge = DeviceMerge(deliveries) { $0.time }
            }

            /// The next delivered epoch, or `nil` at the end of the feed.
            public mutating func next() -> SimulatedEpoch? {
                merge.next().map { SimulatedEpoch(device: $0.device, sample: $0.element.sample) }
            }
        }

        /// A fresh read from the first epoch.
        public func makeIterator() -> Iterator { Iterator(simulation) }
    }
}

/// One delivered fix of a ``SimulatedFeed`` as plain values (cheap to copy,
/// nothing reference-counted), before ``SimulatedFeed/fix(_:)`` makes it a fix.
public struct SimulatedEpoch: Sendable {
    /// The index of the device in ``FeedSimulation/devices``.
    let device: Int
    /// Its time, position, motion and validity.
    let sample: DeviceSampler.Sample
}
