import Benchmark
import BenchmarkWorkloads
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

    for box in [GeofenceWorkload.Layout.city, .country] {
        for count in [1_000, 10_000, 100_000, 1_000_000] {
            let label = "\(box.rawValue), \(count / 1_000)k regions"
            Benchmark(
                "grid build, \(label)", configuration: .init(maxDuration: .seconds(5), maxIterations: count >= 100_000 ? 5 : 50)
            ) { benchmark in
                var workload = GeofenceWorkload(layout: box, seed: 11)
                let shapes = workload.regions(count: count)
                benchmark.startMeasurement()
                blackHole(SpatialGrid(shapes: shapes))
                benchmark.stopMeasurement()
            }
            Benchmark(
                "grid query, \(label)", configuration: .init(scalingFactor: .kilo, maxDuration: .seconds(5), maxIterations: 20)
            ) { benchmark in
                var workload = GeofenceWorkload(layout: box, seed: 11)
                let grid = SpatialGrid(shapes: workload.regions(count: count))
                let points = workload.walks(count: 1_000, tracks: 1)
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

    Benchmark("detector, 1 h at 1 Hz, 10k city regions", configuration: .init(maxDuration: .seconds(5), maxIterations: 50)) {
        benchmark in
        var workload = GeofenceWorkload(layout: .city, seed: 21)
        let regions = workload.regions(count: 10_000).enumerated().map { Region(id: "r\($0.offset)", shape: $0.element) }
        let fixes = workload.walks(count: 3_600, tracks: 1).enumerated().compactMap { second, point in
            TimedFix(
                Fix(time: Timestamp(nanoseconds: (1_740_823_200 + Int64(second)) * 1_000_000_000), coordinate: point, accuracy: 8)
            )
        }
        var detector = TransitionDetector(regions: regions, settings: GeofenceSettings(dwell: 300))
        var transitions: [Transition] = []
        var count = 0
        benchmark.startMeasurement()
        for fix in fixes {
            transitions.removeAll(keepingCapacity: true)
            _ = detector.process(fix, into: &transitions)
            count += transitions.count
        }
        benchmark.stopMeasurement()
        blackHole(count)
    }
}
