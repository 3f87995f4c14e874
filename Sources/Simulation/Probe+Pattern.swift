import GeoCore

/// The cases at one region, laid out on the circle's own axes: the passes
/// run along the direction of travel (`along`, away from where the course
/// comes from), each offset to the left of the centre by its closest
/// approach, and are joined end to end outside the circle; then the course
/// goes out straight ahead, in to the line to park, and back out:
///
/// ```
///   back ────── pass-outside ──────▶ forward
///   back ◀───── pass-on-line ─────── forward
///   back ────── pass-inside ───────▶ forward
///               centre       park ── exit
/// ```
///
/// On the sphere, each pass is the great circle through the point at its
/// offset that is perpendicular there to the great circle from the centre,
/// so that point is exactly its closest approach.
struct Pattern {
    let region: Probe.Region
    let sigma: Double
    /// The bearing from the centre towards the course's arrival.
    let entryBearing: Double

    private var along: Double { (entryBearing + 180).truncatingRemainder(dividingBy: 360) }
    /// How far each pass runs either side of its closest approach, and the
    /// radius of the orbit out: the circle's radius plus the clearance.
    private var reach: Double { region.radius + Probe.clearance(radius: region.radius, sigma: sigma) }

    /// Travels the three passes and the park, and returns their segments;
    /// the course ends at ``reach`` from the centre, straight ahead.
    func run(on course: inout Course, parking park: Double) -> [Probe.Segment] {
        let passes: [(Probe.Kind, Double)] = [
            (.passInside, max(0, region.radius - 2 * sigma)), (.passOnLine, region.radius),
            (.passOutside, region.radius + 2 * sigma),
        ]
        var segments: [Probe.Segment] = []
        for (index, (kind, closest)) in passes.enumerated() {
            var ends = passEnds(closestApproach: closest)
            if index % 2 == 1 { ends.reverse() }
            course.go(to: ends[0])
            let start = course.now
            course.go(to: ends[1])
            segments.append(segment(kind, offset: closest - region.radius, start: start, end: course.now))
        }
        let exit = Geodesy.destination(from: region.centre, bearing: along, metres: reach)
        course.go(to: exit)
        course.go(to: Geodesy.destination(from: region.centre, bearing: along, metres: region.radius))
        let parked = course.now
        course.wait(park)
        segments.append(segment(.parkOnLine, offset: 0, start: parked, end: course.now))
        course.go(to: exit)
        return segments
    }

    /// Leaves along the orbit at ``reach`` from the exit straight ahead to
    /// the point at `bearing`, in steps of at most 45° so that no chord
    /// comes nearer the centre than 92 % of the orbit.
    func orbit(on course: inout Course, towards bearing: Double) {
        let turn = (bearing - along + 540).truncatingRemainder(dividingBy: 360) - 180
        let steps = Int((abs(turn) / 45).rounded(.up))
        for step in stride(from: 1, through: steps, by: 1) {
            let heading = along + turn * Double(step) / Double(steps)
            course.go(to: Geodesy.destination(from: region.centre, bearing: heading, metres: reach))
        }
    }

    /// The back and forward ends of the pass whose closest approach lies
    /// `closestApproach` metres to the left of the centre.
    private func passEnds(closestApproach: Double) -> [Coordinate] {
        let closest = Geodesy.destination(from: region.centre, bearing: along - 90, metres: closestApproach)
        let heading = closestApproach > 0 ? Geodesy.bearing(from: closest, to: region.centre) - 90 : along
        return [
            Geodesy.destination(from: closest, bearing: heading + 180, metres: reach),
            Geodesy.destination(from: closest, bearing: heading, metres: reach),
        ]
    }

    private func segment(_ kind: Probe.Kind, offset: Double, start: Timestamp, end: Timestamp) -> Probe.Segment {
        Probe.Segment(regionID: region.id, kind: kind, offset: offset, start: start, end: end)
    }
}
