import GeoCore

/// One device's true positions, in time order: the path every `interval`
/// from its start, and at each of its vertices, every time once.
struct TruthSampler: IteratorProtocol {
    private let device: SimulatedDevice
    private var cursor: TimedPath.Cursor
    private var grid: TimeGrid
    private var nextGridTime: Int64?
    private var nextVertex = 0
    private var lastTime = Int64.min

    init(device: SimulatedDevice, interval: Double) {
        self.device = device
        cursor = TimedPath.Cursor(device.path)
        let start = device.path.start.nanoseconds
        grid = TimeGrid(
            anchor: start, step: Int64((interval * 1e9).rounded()), lower: start, upper: device.path.end.nanoseconds)
        nextGridTime = grid.next()
    }

    mutating func next() -> Fix? {
        let vertices = device.path.vertices
        while true {
            let vertexTime = nextVertex < vertices.count ? vertices[nextVertex].time.nanoseconds : nil
            guard let time = earlier(nextGridTime, vertexTime) else { return nil }
            if time == nextGridTime { nextGridTime = grid.next() }
            if time == vertexTime { nextVertex += 1 }
            if time == lastTime { continue }
            lastTime = time
            let timestamp = Timestamp(
                nanoseconds: time, fractionDigits: max(grid.fractionDigits, TimeGrid.fractionDigits(of: time)))
            return Fix(time: timestamp, coordinate: cursor.position(at: timestamp), device: device.name)
        }
    }

    private func earlier(_ a: Int64?, _ b: Int64?) -> Int64? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }
}
