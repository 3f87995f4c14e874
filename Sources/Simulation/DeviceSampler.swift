import GeoCore

/// One device's epochs in time order, before delivery reorders or repeats
/// them: the path sampled on the grid, the error added, dropped fixes and
/// tunnels left out, cold-start epochs marked invalid.
///
/// The error process runs at every epoch of the grid, delivered or not, so
/// dropouts and gaps change which fixes arrive but not where they are.
struct DeviceSampler: IteratorProtocol {
    private let device: Int
    private let path: TimedPath
    private var grid: TimeGrid
    private var cursor: TimedPath.Cursor
    private var motion: (leg: Int, value: TimedPath.Motion)
    private var errors: ErrorProcess
    private var dropoutRandom: SplitMix64
    private let dropout: Double
    private let gaps: [DeliverySettings.Gap]
    private let coldStartEnd: Int64

    /// The sampler of device number `device` (its index in the simulation)
    /// following `path`.
    init(device: Int, path: TimedPath, errorModel: ErrorModel, delivery: DeliverySettings, streams: DeviceRandomStreams) {
        self.device = device
        self.path = path
        grid = TimeGrid(
            anchor: (delivery.start ?? path.start).nanoseconds, step: Int64((delivery.interval * 1e9).rounded()),
            lower: path.start.nanoseconds, upper: path.end.nanoseconds)
        cursor = TimedPath.Cursor(path)
        motion = (0, path.motion(onLeg: 0))
        errors = ErrorProcess(model: errorModel, gaussian: streams.gaussianError, outliers: streams.outliers)
        dropoutRandom = streams.dropout
        dropout = delivery.dropout
        gaps = delivery.gaps
        coldStartEnd = path.start.adding(seconds: delivery.coldStart).nanoseconds
    }

    @inline(__always)
    mutating func next() -> SimulatedEpoch? {
        while let time = grid.next() {
            let truth = cursor.position(at: Timestamp(nanoseconds: time))
            let error = errors.offset(at: time)
            let dropped = dropout > 0 && dropoutRandom.chance(dropout)
            if dropped || gaps.contains(where: { $0.contains(time) }) { continue }
            if cursor.leg != motion.leg { motion = (cursor.leg, path.motion(onLeg: cursor.leg)) }
            return SimulatedEpoch(
                device: device, nanoseconds: time, fractionDigits: grid.fractionDigits, coordinate: truth.moved(by: error),
                speed: motion.value.speed, course: motion.value.course, valid: time >= coldStartEnd)
        }
        return nil
    }
}
