import GeoCore

/// One device's epochs in the order they are delivered, each with its
/// arrival time: the sampler's epochs delayed and repeated.
///
/// **Reorder.** Each fix is delayed by a uniform random time in
/// [0, `--reorder`) and delivered in order of arrival (stamp + delay; equal
/// arrivals in stamp order). A fix that arrives after one stamped later
/// has a delay longer than their stamps differ by, so the difference is
/// under `--reorder`. A fix is released once the sampler has produced a fix
/// stamped at or after its arrival: nothing still to come can arrive
/// earlier. The buffer thus holds the fixes of the last `--reorder`
/// seconds only; without reordering, fixes pass straight through.
///
/// **Duplicates.** With probability `--duplicates` a fix is delivered
/// again right after itself, with the same arrival.
struct DeviceDelivery: IteratorProtocol {
    /// An epoch and when it arrives, in nanoseconds since 1970.
    struct Arrival: Comparable {
        var time: Int64
        var epoch: SimulatedEpoch
        /// The fix's place in the sampler's output, to order equal arrivals.
        var sequence: Int

        static func < (lhs: Arrival, rhs: Arrival) -> Bool {
            (lhs.time, lhs.sequence) < (rhs.time, rhs.sequence)
        }

        static func == (lhs: Arrival, rhs: Arrival) -> Bool {
            (lhs.time, lhs.sequence) == (rhs.time, rhs.sequence)
        }
    }

    private var sampler: DeviceSampler
    private var samplerFinished = false
    /// The stamp of the latest fix taken from the sampler.
    private var latestStamp = Int64.min
    private var sequence = 0
    private var buffer = MinHeap<Arrival>()
    private let maximumDelay: Double
    private var reorderRandom: SplitMix64
    private let duplicates: Double
    private var duplicatesRandom: SplitMix64
    private var pendingCopy: Arrival?

    init(sampler: DeviceSampler, delivery: DeliverySettings, streams: DeviceRandomStreams) {
        self.sampler = sampler
        maximumDelay = delivery.reorder
        reorderRandom = streams.reorder
        duplicates = delivery.duplicates
        duplicatesRandom = streams.duplicates
    }

    @inline(__always)
    mutating func next() -> Arrival? {
        if let copy = pendingCopy {
            pendingCopy = nil
            return copy
        }
        guard let arrival = nextArrival() else { return nil }
        if duplicates > 0, duplicatesRandom.chance(duplicates) { pendingCopy = arrival }
        return arrival
    }

    @inline(__always)
    private mutating func nextArrival() -> Arrival? {
        if maximumDelay == 0 {
            guard let epoch = sampler.next() else { return nil }
            return Arrival(time: epoch.nanoseconds, epoch: epoch, sequence: 0)
        }
        while true {
            if let earliest = buffer.min, samplerFinished || earliest.time <= latestStamp { return buffer.popMin() }
            guard let epoch = sampler.next() else {
                samplerFinished = true
                if buffer.isEmpty { return nil }
                continue
            }
            let stamp = epoch.nanoseconds
            let delay = maximumDelay > 0 ? Int64(reorderRandom.uniform(0, maximumDelay * 1e9)) : 0
            buffer.insert(Arrival(time: stamp + delay, epoch: epoch, sequence: sequence))
            sequence += 1
            latestStamp = stamp
        }
    }
}
