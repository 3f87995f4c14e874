import GeoCore

extension Circle {
    /// Whether `Geodesy.distance(centre, point)` exceeds `metres`, when
    /// cheap bounds on that distance settle it; `nil` when they do not.
    ///
    /// The bounds take the haversine's h from ``smallAngleHaversine(dLat:dLon:cosines:)``
    /// (the grid's own bounds), the latitudes' cosines from
    /// ``latitudeCosine(degrees:)``, and asin s between s and s(1 + s²/5);
    /// they answer only for points within about 60 km of each other below
    /// 80° of latitude, and only when the distance clears `metres` by more
    /// than 1e-9 of the two plus 10 nm, far beyond the rounding of either
    /// computation (the reference's Δφ in radians alone may be off by
    /// 4e-16 rad, some 3 nm). No trigonometric call.
    @inline(__always)
    func certainlyFarther(than metres: Double, from point: Coordinate) -> Bool? {
        let latitude = centre.latitude
        guard abs(latitude) < 80, abs(point.latitude) < 80 else { return nil }
        let dLat = point.latitude - latitude
        let rawLon = abs(point.longitude - centre.longitude)
        let dLon = min(rawLon, 360 - rawLon)
        // Differences below 0.573°: half-angles below 0.005 rad, where asin's bound holds with room.
        guard max(abs(dLat), dLon) < 0.573 else { return nil }
        let cosines = latitudeCosine(degrees: latitude) * latitudeCosine(degrees: point.latitude)
        let (upper, lower) = smallAngleHaversine(dLat: dLat, dLon: dLon, cosines: cosines)
        let diameter = 2 * Geodesy.earthRadius
        let nearest = diameter * lower.squareRoot()
        let farthest = diameter * upper.squareRoot() * (1 + upper * (1.0 / 5))
        let tolerance = 1e-9 * (farthest + abs(metres)) + 1e-8
        if nearest - tolerance > metres { return true }
        if farthest + tolerance < metres { return false }
        return nil
    }
}

extension Shape {
    /// Whether `point` lies beyond the fence by more than `accuracy` +
    /// `hysteresis` metres: `excess(at: point) - accuracy > hysteresis`,
    /// the exit rule, with a circle's distance left uncomputed when its
    /// bounds settle the answer (``Circle/certainlyFarther(than:from:)``).
    func isBeyond(_ point: Coordinate, accuracy: Double, hysteresis: Double) -> Bool {
        if case .circle(let circle) = self, accuracy >= 0, hysteresis >= 0,
            let farther = circle.certainlyFarther(than: circle.radius + accuracy + hysteresis, from: point)
        {
            return farther
        }
        return excess(at: point) - accuracy > hysteresis
    }
}
