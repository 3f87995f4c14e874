import GeoCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A seeded generator of geofence workloads: regions, random-walk
/// positions and query points, the same on every machine for a seed
/// (``SplitMix64``). `repeat-sim bench`, the `Benchmarks/` package and the
/// grid's differential tests all draw their regions and positions from it.
///
/// ```swift
/// var workload = GeofenceWorkload(layout: .city, seed: 1)
/// let regions = workload.regions(count: 10_000)      // circles of 50–500 m
/// let positions = workload.walks(count: 1_000_000)   // ten 1 Hz random walks
/// ```
///
/// Every draw comes from one stream, in call order: the same calls in the
/// same order give the same workload. The generator is itself a
/// `RandomNumberGenerator`, so callers can draw their own choices
/// (`Int.random(in:using:)`) from the same stream.
public struct GeofenceWorkload: RandomNumberGenerator {
    /// Where regions lie and how large they are.
    public enum Layout: String, CaseIterable, Sendable {
        /// Circles of 50–500 m uniform in a 30 km box around 52.52 N 13.40 E,
        /// like ../shared/bench/gen_workload.py's city workload.
        case city
        /// The same in an 800 km box (gen_workload.py's country workload).
        case country
        /// Circles of 1–300 km, one in eight a polygon, between 60 S and 60 N.
        case world
        /// Circles of 20 m–3 km, one in eight a polygon, in four cities
        /// (Berlin, Sydney, New York, Singapore) a few kilometres across.
        case clustered
        /// Circles of 20 m–3 km, one in eight a polygon, within half a
        /// degree of the antimeridian.
        case antimeridian
        /// Circles of 10 m–40 km centred within 1.5° of either pole.
        case polar
        /// Circles of 1 m–50 km (log-uniform), one in eight a polygon, in a
        /// 1° × 1.5° box: small and huge regions in the same cells.
        case mixedSizes
    }

    /// The layout regions and walks follow.
    public let layout: Layout
    private var random: SplitMix64
    /// The city or country box; `nil` for the other layouts.
    let box: BoundingBox?

    /// A workload of `layout` whose randomness starts from `seed`.
    public init(layout: Layout, seed: UInt64) {
        self.layout = layout
        random = SplitMix64(seed: seed)
        switch layout {
        case .city, .country:
            let half = layout == .city ? 15_000.0 : 400_000.0
            let dLat = half / Geodesy.metresPerDegree
            let dLon = dLat / Self.cosine(52.52)
            box = BoundingBox(south: 52.52 - dLat, north: 52.52 + dLat, west: 13.40 - dLon, east: 13.40 + dLon)
        default:
            box = nil
        }
    }

    /// The next 64 random bits of the workload's stream.
    public mutating func next() -> UInt64 { random.next() }

    /// A uniform value in `low..<high`.
    public mutating func uniform(_ low: Double, _ high: Double) -> Double { random.uniform(low, high) }

    /// A normal deviate with standard deviation `sigma` (Box–Muller).
    mutating func normal(_ sigma: Double) -> Double {
        let u = max(uniform(0, 1), 1e-300)
        let v = uniform(0, 1)
        return sigma * (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }

    /// The cosine of an angle in degrees.
    static func cosine(_ degrees: Double) -> Double { cos(degrees * .pi / 180) }
}
