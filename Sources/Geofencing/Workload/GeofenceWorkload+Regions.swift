import GeoCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension GeofenceWorkload {
    /// `count` regions of the layout (``shape()`` each).
    public mutating func regions(count: Int) -> [Shape] {
        (0..<count).map { _ in shape() }
    }

    /// One region of the layout: a circle, or for `world`, `clustered`,
    /// `antimeridian` and `mixedSizes` one time in eight a star-shaped
    /// polygon (half of them with a hole) of about the same size.
    public mutating func shape() -> Shape {
        let centre = self.centre()
        let radius = self.radius()
        switch layout {
        case .city, .country, .polar:
            return .circle(centre: centre, radius: radius)
        case .world, .clustered, .antimeridian, .mixedSizes:
            if Int.random(in: 0..<8, using: &self) != 0 { return .circle(centre: centre, radius: radius) }
            return polygon(around: centre, radius: radius)
        }
    }

    /// A region centre of the layout.
    public mutating func centre() -> Coordinate {
        switch layout {
        case .city, .country:
            let box = self.box!
            let latitude = uniform(box.south, box.north)
            return Coordinate(latitude: latitude, longitude: uniform(box.west, box.east))
        case .world:
            let latitude = uniform(-60, 60)
            return Coordinate(latitude: latitude, longitude: uniform(-180, 180))
        case .clustered:
            let base = [(52.52, 13.40), (-33.9, 151.2), (40.7, -74.0), (1.3, 103.8)][Int.random(in: 0..<4, using: &self)]
            let latitude = base.0 + uniform(-0.05, 0.05)
            return Coordinate(latitude: latitude, longitude: base.1 + uniform(-0.05, 0.05))
        case .antimeridian:
            let latitude = uniform(-20, 20)
            return Coordinate(latitude: latitude, longitude: Geodesy.wrapLongitude(180 + uniform(-0.5, 0.5)))
        case .polar:
            let north = Bool.random(using: &self)
            let latitude = uniform(88.5, 90)
            return Coordinate(latitude: north ? latitude : -latitude, longitude: uniform(-180, 180))
        case .mixedSizes:
            let latitude = uniform(47, 48)
            return Coordinate(latitude: latitude, longitude: uniform(7, 8.5))
        }
    }

    /// A region radius of the layout, in metres.
    public mutating func radius() -> Double {
        switch layout {
        case .city, .country: uniform(50, 500)
        case .world: uniform(1_000, 300_000)
        case .clustered, .antimeridian: uniform(20, 3_000)
        case .polar: uniform(10, 40_000)
        case .mixedSizes: pow(10, uniform(0, 4.7))
        }
    }

    /// A star-shaped polygon of 3–9 corners at 0.5–1 `radius` from `centre`,
    /// half the time with a square hole around the centre.
    mutating func polygon(around centre: Coordinate, radius: Double) -> Shape {
        let corners = Int.random(in: 3...9, using: &self)
        var outer: [Coordinate] = []
        for corner in 0..<corners {
            let bearing = Double(corner) * 360 / Double(corners) + uniform(0, 10)
            outer.append(Geodesy.destination(from: centre, bearing: bearing, metres: radius * uniform(0.5, 1)))
        }
        outer.append(outer[0])
        var rings = [outer]
        if Bool.random(using: &self) {
            var hole: [Coordinate] = (0..<4).map {
                Geodesy.destination(from: centre, bearing: Double($0) * 90 + 45, metres: radius * 0.2)
            }
            hole.append(hole[0])
            rings.append(hole)
        }
        do {
            return .area(try Area(polygons: [rings]))
        } catch {
            preconditionFailure("a closed star with corners 360/\(corners)° apart is a valid polygon: \(error)")
        }
    }
}
