import GeoCore

/// One device's epochs in time order, before delivery reorders or repeats
/// them: the path sampled on the grid, the error added, dropped fixes and
/// tunnels left out, cold-start epochs marked invalid.
///
/// The error process runs at every epoch of the grid, delivered or not, so
/// dropouts and gaps change which fixes arrive but not where they are.
struct DeviceSampler: IteratorProtocol {
    /// One epoch as plain values, cheap to copy through delivery and the
    /// merge; ``SimulatedFeed`` makes it a ``Fix`` with the device's name,
    /// accuracy and HDOP once it is delivered.
    struct Sample {
        /// Nanoseconds since 1970.
        var time: Int64
        /// The fraction digits of the time.
        var fractionDigits: UInt8
        /// The noisy position.
        var coordinate: Coordinate
        /// The true speed and course of the leg.
        var motion: TimedPath.Motion
        /// `false` during a cold start.
        var valid: Bool
    }

    private let path: TimedPath
    private var grid: TimeGrid
    private var cursor: TimedPath.Cursor
    private var motion: (leg: Int, value: TimedPath.Motion)
    private var errors: ErrorProcess
    private var dropoutRandom: SplitMix64
    private let dropout: Double
    private let gaps: [DeliverySettings.Gap]
    private let coldStartEnd: Int64

    init(path: TimedPath, errorModel: ErrorModel, delivery: DeliverySettings, streams: DeviceRandomStreams) {
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
    mutating func next() -> Sample? {
        while let time = grid.next() {
            let truth = cursor.position(at: Timestamp(nanoseconds: time))
            let error = errors.offset(at: time)
            let dropped = dropout > 0 && dropoutRandom.chance(dropout)
            if dropped || gaps.contains(where: { $0.contains(time) }) { continue }
            if cursor.leg != motion.leg { motion = (cursor.leg, path.motion(onLeg: cursor.leg)) }
            return Sample(
                time: time, fractionDigits: grid.fractionDigits, coordinate: truth.moved(by: error), motion: motion.value,
                valid: time >= coldStartEnd)
        }
        return nil
    }
}
