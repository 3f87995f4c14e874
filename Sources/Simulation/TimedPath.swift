import GeoCore

/// Where a device truly is at every moment: vertices with times, followed
/// along great-circle legs at constant speed between each pair (a stop is
/// two vertices at one place).
///
/// Every true path of a simulation becomes one: a route followed at a
/// profile's speed (``following(_:speed:stop:from:)``), a recording on its
/// own clock, an itinerary, a probe. Sampling it at any time is the truth;
/// the error model and the delivery artefacts act on the samples.
public struct TimedPath: Sendable {
    /// One vertex: a place and the time the device is there.
    public struct Vertex: Hashable, Sendable {
        /// When the device is here.
        public var time: Timestamp
        /// Where.
        public var coordinate: Coordinate

        /// A vertex at `coordinate` at `time`.
        public init(time: Timestamp, coordinate: Coordinate) {
            self.time = time
            self.coordinate = coordinate
        }
    }

    /// The vertices, in non-decreasing time order; at least two.
    public let vertices: [Vertex]

    /// A path through `vertices`.
    /// - Throws: ``SimulationError/tooFewPoints(_:)`` for fewer than two
    ///   vertices, ``SimulationError/timeGoesBack(index:)`` where a vertex
    ///   is earlier than the one before it.
    public init(vertices: [Vertex]) throws(SimulationError) {
        guard vertices.count >= 2 else { throw .tooFewPoints(vertices.count) }
        for index in 1..<vertices.count where vertices[index].time < vertices[index - 1].time {
            throw .timeGoesBack(index: index)
        }
        self.vertices = vertices
    }

    /// A route followed from `start` at `speed` metres per second, stopping
    /// `stop` seconds at each interior vertex (a stop adds a second vertex
    /// at the same place).
    /// - Throws: ``SimulationError/tooFewPoints(_:)``; ``SimulationError/invalidValue(_:_:)``
    ///   for a speed that is not positive or a negative stop.
    public static func following(
        _ route: [Coordinate], speed: Double, stop: Double = 0, from start: Timestamp
    ) throws(SimulationError) -> TimedPath {
        guard route.count >= 2 else { throw .tooFewPoints(route.count) }
        guard speed > 0, speed.isFinite else { throw .invalidValue("speed", "must be a positive number of metres per second") }
        guard stop >= 0, stop.isFinite else { throw .invalidValue("stop", "must be 0 or more seconds") }
        var vertices = [Vertex(time: start, coordinate: route[0])]
        vertices.reserveCapacity(route.count * (stop > 0 ? 2 : 1))
        var seconds = 0.0
        // In doubles: from a start before 1970 the difference passes Int64.
        let allowed = (Double(latestEnd.nanoseconds) - Double(start.nanoseconds)) / 1e9
        for index in 1..<route.count {
            seconds += Geodesy.distance(route[index - 1], route[index]) / speed
            guard seconds <= allowed else { throw .pastLatestTime }
            vertices.append(Vertex(time: start.adding(seconds: seconds), coordinate: route[index]))
            if stop > 0, index < route.count - 1 {
                seconds += stop
                guard seconds <= allowed else { throw .pastLatestTime }
                vertices.append(Vertex(time: start.adding(seconds: seconds), coordinate: route[index]))
            }
        }
        return try TimedPath(vertices: vertices)
    }

    /// The latest a simulated path may end: a day before the last instant a
    /// ``Timestamp`` holds (2262-04-11T23:47:16Z), so that no fix's delay
    /// or sampling step passes it.
    public static let latestEnd = Timestamp(nanoseconds: Int64.max - 86_400 * 1_000_000_000)

    /// When the path starts.
    public var start: Timestamp { vertices[0].time }
    /// When it ends.
    public var end: Timestamp { vertices[vertices.count - 1].time }

    /// The path's length in metres.
    public var length: Double {
        zip(vertices, vertices.dropFirst()).reduce(0) { $0 + Geodesy.distance($1.0.coordinate, $1.1.coordinate) }
    }

    /// Reads positions at non-decreasing times in amortised constant time.
    public struct Cursor: Sendable {
        private let path: TimedPath
        /// The leg of the last position read: from `vertices[leg]` to
        /// `vertices[leg + 1]`.
        public private(set) var leg = 0
        /// The great circle of `leg`, worked out when the cursor reaches it.
        private var circle: GreatCircleLeg

        /// A cursor at the path's start.
        public init(_ path: TimedPath) {
            self.path = path
            circle = GreatCircleLeg(from: path.vertices[0].coordinate, to: path.vertices[1].coordinate)
        }

        /// Where the device is at `time` (the first vertex before the
        /// start, the last after the end); times must not decrease from
        /// one call to the next.
        @inline(__always)
        public mutating func position(at time: Timestamp) -> Coordinate {
            let vertices = path.vertices
            let before = leg
            while leg < vertices.count - 2, vertices[leg + 1].time <= time { leg += 1 }
            if leg != before { circle = GreatCircleLeg(from: vertices[leg].coordinate, to: vertices[leg + 1].coordinate) }
            let from = vertices[leg]
            let to = vertices[leg + 1]
            if time <= from.time { return from.coordinate }
            if time >= to.time { return to.coordinate }
            let fraction = time.nanoseconds(since: from.time) / to.time.nanoseconds(since: from.time)
            return circle.point(at: fraction)
        }
    }
}

/// Why a simulation cannot be set up.
public enum SimulationError: Error, Equatable, CustomStringConvertible {
    /// A path needs at least two points.
    case tooFewPoints(Int)
    /// A vertex's time is earlier than the one before it (0-based index).
    case timeGoesBack(index: Int)
    /// A parameter's value is out of range: its name and what it must be.
    case invalidValue(String, String)
    /// The path would end after ``TimedPath/latestEnd``, past the last
    /// instant a ``Timestamp`` holds (less a day for the fixes' delays).
    case pastLatestTime
    /// The simulation would begin before 1677-09-22, the first whole day
    /// a ``Timestamp`` holds (an itinerary's days begin at local midnight).
    case beforeEarliestTime

    public var description: String {
        switch self {
        case .tooFewPoints(let count):
            return "a path needs at least two points, got \(count)"
        case .timeGoesBack(let index):
            return "point \(index + 1) is earlier than the point before it"
        case .invalidValue(let name, let rule):
            return "\(name) \(rule)"
        case .pastLatestTime:
            return "the simulation would run past 2262-04-10, the last day a time here holds: "
                + "start it earlier, or make it (or its delays) shorter"
        case .beforeEarliestTime:
            return "the simulation would begin before 1677-09-22, the first whole day a time here holds: start it later"
        }
    }
}
