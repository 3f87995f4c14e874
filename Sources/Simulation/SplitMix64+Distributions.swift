import GeoCore

extension SplitMix64 {
    /// Two independent standard normal values (Box–Muller).
    @inline(__always)
    mutating func normalPair() -> (Double, Double) {
        let radius = (-2 * _log(1 - uniform(0, 1))).squareRoot()
        let angle = uniform(0, 2 * .pi)
        let (sine, cosine) = _sinCos(angle)
        return (radius * cosine, radius * sine)
    }

    /// `true` with probability `probability` (0…1).
    mutating func chance(_ probability: Double) -> Bool {
        uniform(0, 1) < probability
    }
}
