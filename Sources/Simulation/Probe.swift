import GeoCore

/// A true path that stresses the boundaries of circular regions: for each
/// region, three straight passes whose closest approach to the centre is
/// inside the circle by 2σ, on the line, and outside by 2σ, then a stop
/// parked on the line — the cases where detectors flap or miss
/// (`repeat-sim generate --probe REGIONS`).
///
/// σ is the error model's per-axis σ_total in metres. The regions are
/// probed one after another, in order, at one speed; ``segments`` labels
/// each case with its times, so an evaluation can tell which case an event
/// or a miss came from. Only circles are probed; polygons are out of scope.
///
/// Each region's cases stay within ``clearance(radius:sigma:)`` of its
/// circle, and every leg between them — and the orbit that leaves towards
/// the next region — stays outside the circle, so the only true events at
/// a region are its cases'. Legs between regions go straight from one
/// region's orbit to the next one's first pass; they keep out of both
/// circles when the regions are further apart than the sum of their
/// clearances and radii, and may cross other regions on the way.
public struct Probe: Sendable {
    /// A circle to probe.
    public struct Region: Hashable, Sendable {
        /// The region's id, copied to its segments.
        public var id: String
        /// The centre.
        public var centre: Coordinate
        /// The radius in metres.
        public var radius: Double

        /// A circle of `radius` metres around `centre`.
        public init(id: String, centre: Coordinate, radius: Double) {
            self.id = id
            self.centre = centre
            self.radius = radius
        }
    }

    /// Which case a segment is.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A straight pass whose closest approach is inside by 2σ (through
        /// the centre when 2σ is more than the radius).
        case passInside = "pass-inside"
        /// A straight pass tangent to the circle.
        case passOnLine = "pass-on-line"
        /// A straight pass whose closest approach is outside by 2σ.
        case passOutside = "pass-outside"
        /// A stop at a point of the circle.
        case parkOnLine = "park-on-line"
    }

    /// One case at one region, and when it happens.
    public struct Segment: Hashable, Sendable {
        /// The region's id.
        public var regionID: String
        /// The case.
        public var kind: Kind
        /// The closest approach to the centre minus the radius, in metres
        /// (negative inside).
        public var offset: Double
        /// When the pass begins or the stop starts.
        public var start: Timestamp
        /// When the pass ends or the stop is over.
        public var end: Timestamp
    }

    /// The path through every case of every region.
    public let path: TimedPath
    /// The cases in path order, four per region.
    public let segments: [Segment]

    /// Probes `regions` in order from `start`, at `speed` metres per
    /// second, parking `park` seconds on each line.
    /// - Throws: ``SimulationError/invalidValue(_:_:)`` for no regions, a
    ///   radius that is not positive, a negative σ or park, or a speed that
    ///   is not positive; ``SimulationError/pastLatestTime`` when the
    ///   course would end after ``TimedPath/latestEnd``.
    public init(
        regions: [Region], sigma: Double, speed: Double, park: Double = 300, from start: Timestamp
    ) throws(SimulationError) {
        guard !regions.isEmpty else { throw .invalidValue("regions", "must name at least one circle") }
        if let region = regions.first(where: { !($0.radius > 0 && $0.radius.isFinite) }) {
            throw .invalidValue("radius", "of region \(region.id) must be a positive number of metres")
        }
        guard sigma >= 0, sigma.isFinite else { throw .invalidValue("sigma", "must be 0 or more metres") }
        guard speed > 0, speed.isFinite else { throw .invalidValue("speed", "must be a positive number of metres per second") }
        guard park >= 0, park.isFinite else { throw .invalidValue("park", "must be 0 or more seconds") }
        var course = Course(speed: speed, start: start)
        var segments: [Segment] = []
        for (index, region) in regions.enumerated() {
            let entryBearing = index == 0 ? 270 : Geodesy.bearing(from: region.centre, to: course.position)
            let pattern = Pattern(region: region, sigma: sigma, entryBearing: entryBearing)
            segments += pattern.run(on: &course, parking: park)
            if index + 1 < regions.count {
                pattern.orbit(on: &course, towards: Geodesy.bearing(from: region.centre, to: regions[index + 1].centre))
            }
        }
        guard !course.overran else { throw .pastLatestTime }
        self.path = try TimedPath(vertices: course.vertices)
        self.segments = segments
    }

    /// How far beyond its circle a region's cases reach, in metres:
    /// 100 m + radius / 2 + 6σ — far enough that a detector with the
    /// default hysteresis (max(10 m, 10 % of the radius)) sees each pass
    /// end outside even with the error model's noise.
    public static func clearance(radius: Double, sigma: Double) -> Double {
        100 + radius / 2 + 6 * sigma
    }
}

/// A path under construction at constant speed.
struct Course {
    let speed: Double
    private(set) var vertices: [TimedPath.Vertex] = []

    init(speed: Double, start: Timestamp) {
        self.speed = speed
        self.now = start
    }

    /// The time at the end of the course.
    private(set) var now: Timestamp

    /// Whether a step would have ended after ``TimedPath/latestEnd`` (a
    /// crawl, a park of centuries): the course stopped before it.
    private(set) var overran = false

    /// Where the course ends; only after the first ``go(to:)``.
    var position: Coordinate { vertices[vertices.count - 1].coordinate }

    /// Travels to `coordinate` (the first call places the start there).
    mutating func go(to coordinate: Coordinate) {
        if let last = vertices.last {
            advance(by: Geodesy.distance(last.coordinate, coordinate) / speed)
        }
        vertices.append(TimedPath.Vertex(time: now, coordinate: coordinate))
    }

    /// Stays where it is for `seconds`.
    mutating func wait(_ seconds: Double) {
        advance(by: seconds)
        vertices.append(TimedPath.Vertex(time: now, coordinate: position))
    }

    /// Moves ``now`` on by `seconds`, unless that passes the latest end.
    private mutating func advance(by seconds: Double) {
        // In doubles, which no number of seconds overflows.
        guard !overran, now.secondsSince1970 + seconds <= TimedPath.latestEnd.secondsSince1970 else {
            overran = true
            return
        }
        now = now.adding(seconds: seconds)
    }
}
