import GeoCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension GeofenceWorkload {
    /// `count` positions in `tracks` 1 Hz random walks, one after another,
    /// like gen_workload.py's: each starts uniform in the box with a uniform
    /// heading, then steps 8–12 m with a heading change of N(0, 0.25 rad),
    /// and turns back at the box's edges.
    ///
    /// - Precondition: the layout is `city` or `country` (the others have no box).
    public mutating func walks(count: Int, tracks: Int = 10) -> [Coordinate] {
        guard let box else { preconditionFailure("walks need the city or country box, not \(layout)") }
        precondition(tracks > 0, "at least one track")
        var points: [Coordinate] = []
        points.reserveCapacity(count)
        for track in 0..<tracks {
            let length = count / tracks + (track < count % tracks ? 1 : 0)
            var lat = uniform(box.south, box.north)
            var lon = uniform(box.west, box.east)
            var heading = uniform(0, 2 * .pi)
            for step in 0..<length {
                if step > 0 {
                    heading += normal(0.25)
                    let metres = uniform(8, 12)
                    lat += metres * cos(heading) / Geodesy.metresPerDegree
                    lon += metres * sin(heading) / (Geodesy.metresPerDegree * Self.cosine(lat))
                    if lat < box.south || lat > box.north || lon < box.west || lon > box.east {
                        heading += .pi
                        lat = min(max(lat, box.south), box.north)
                        lon = min(max(lon, box.west), box.east)
                    }
                }
                points.append(Coordinate(latitude: lat, longitude: lon))
            }
        }
        return points
    }

    /// A query point for `shapes`: half the time near one of them (for a
    /// circle on its boundary, a hair inside or outside, or anywhere within
    /// 1.2 radii; for a polygon within 50 m of a vertex), else within 5 km
    /// of a new ``centre()``.
    public mutating func point(near shapes: [Shape]) -> Coordinate {
        if !shapes.isEmpty, Bool.random(using: &self) {
            switch shapes.randomElement(using: &self)! {
            case .circle(let circle):
                let scale = [1.0, 1 - 1e-9, 1 + 1e-9, uniform(0, 1.2)].randomElement(using: &self)!
                return Geodesy.destination(from: circle.centre, bearing: uniform(0, 360), metres: circle.radius * scale)
            case .area(let area):
                let vertex = area.polygons[0][0].randomElement(using: &self)!
                return Geodesy.destination(from: vertex, bearing: uniform(0, 360), metres: uniform(0, 50))
            }
        }
        let centre = self.centre()
        return Geodesy.destination(from: centre, bearing: uniform(0, 360), metres: uniform(0, 5_000))
    }
}
