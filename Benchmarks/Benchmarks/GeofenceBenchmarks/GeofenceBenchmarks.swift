import Benchmark
import GeoCore
import Geofencing

/// The geofence engine on its hot paths: building the spatial grid and
/// looking up positions at 1k–1M regions in a city (30 km) and a country
/// (800 km) box, shaped like ../shared/bench/gen_workload.py (radius
/// 50–500 m, 1 Hz random walks); and the transition detector on a one-hour
/// 1 Hz track. `repeat-sim bench` compares the same workload with the C
/// baseline; these suites track regressions.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        maxDuration: .seconds(2), maxIterations: 100)

    for box in GeofenceWorkload.Box.allCases {
        for count in [1_000, 10_000, 100_000, 1_000_000] {
            let label = "\(box.rawValue), \(count / 1_000)k regions"
            Benchmark("grid build, \(label)", configuration: .init(maxDuration: .seconds(5), maxIterations: count >= 100_000 ? 5 : 50)) { benchmark in
                var workload = GeofenceWorkload(box: box, seed: 11)
                let shapes = workload.regions(count: count)
                benchmark.startMeasurement()
                blackHole(SpatialGrid(shapes: shapes))
                benchmark.stopMeasurement()
            }
            Benchmark("grid query, \(label)", configuration: .init(scalingFactor: .kilo, maxDuration: .seconds(5), maxIterations: 20)) { benchmark in
                var workload = GeofenceWorkload(box: box, seed: 11)
                let grid = SpatialGrid(shapes: workload.regions(count: count))
                let points = workload.walk(count: 1_000)
                var hits = 0
                benchmark.startMeasurement()
                for index in benchmark.scaledIterations {
                    grid.forEachRegion(containing: points[index % points.count]) { _ in hits += 1 }
                }
                benchmark.stopMeasurement()
                blackHole(hits)
            }
        }
    }

    Benchmark("detector, 1 h at 1 Hz, 10k city regions", configuration: .init(maxDuration: .seconds(5), maxIterations: 50)) { benchmark in
        var workload = GeofenceWorkload(box: .city, seed: 21)
        let regions = workload.regions(count: 10_000).enumerated().map { Region(id: "r\($0.offset)", shape: $0.element) }
        let fixes = workload.walk(count: 3_600).enumerated().map { second, point in
            Fix(time: Timestamp(nanoseconds: (1_740_823_200 + Int64(second)) * 1_000_000_000), coordinate: point, accuracy: 8)
        }
        var detector = TransitionDetector(regions: regions, settings: GeofenceSettings(dwell: 300))
        var transitions = 0
        benchmark.startMeasurement()
        for fix in fixes { transitions += detector.process(fix).count }
        benchmark.stopMeasurement()
        blackHole(transitions)
    }
}

/// Seeded regions and random-walk positions around 52.52 N 13.40 E.
struct GeofenceWorkload {
    /// The box regions and walks lie in.
    enum Box: String, CaseIterable {
        case city, country
    }

    private var state: UInt64
    private let south: Double, north: Double, west: Double, east: Double

    init(box: Box, seed: UInt64) {
        state = seed
        let half = box == .city ? 15_000.0 : 400_000.0
        let dLat = half / Geodesy.metresPerDegree
        let dLon = dLat / 0.608_5  // cos 52.52°
        south = 52.52 - dLat
        north = 52.52 + dLat
        west = 13.40 - dLon
        east = 13.40 + dLon
    }

    private mutating func uniform(_ low: Double, _ high: Double) -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return low + (high - low) * Double(z >> 11) / Double(1 << 53)
    }

    /// Circles uniform in the box, radius 50–500 m.
    mutating func regions(count: Int) -> [Shape] {
        (0..<count).map { _ in
            .circle(centre: Coordinate(latitude: uniform(south, north), longitude: uniform(west, east)),
                    radius: uniform(50, 500))
        }
    }

    /// A 1 Hz walk of 8–12 m steps that turns gently and stays in the box.
    mutating func walk(count: Int) -> [Coordinate] {
        var point = Coordinate(latitude: uniform(south, north), longitude: uniform(west, east))
        var bearing = uniform(0, 360)
        var points: [Coordinate] = []
        for _ in 0..<count {
            points.append(point)
            bearing += uniform(-15, 15)
            var next = Geodesy.destination(from: point, bearing: bearing, metres: uniform(8, 12))
            if next.latitude < south || next.latitude > north || next.longitude < west || next.longitude > east {
                bearing += 180
                next = point
            }
            point = next
        }
        return points
    }
}
