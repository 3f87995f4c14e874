// swift-tools-version:6.1
import PackageDescription

// A nested package so that the root `swift build` / `swift test` never
// compile the benchmark stack. Run from this folder:
//   swift package benchmark                      (all suites)
//   swift package benchmark --target RecurrenceBenchmarks
//   swift package benchmark --target DecodeBenchmarks   (NMEA, GPX, CSV, gpsd)
//   swift package benchmark --target ReplayBenchmarks   (end to end)
//   swift package benchmark --target ScalingBenchmarks  (devices, tasks, regions, jobs)
//   swift package benchmark --target GenerateBenchmarks (the simulator, every format)
//   swift package benchmark --target EvaluateBenchmarks (truth events, a sweep, the replay beside it)
// and, from the repository root, the CI gate on GateBenchmarks' allocations and
// callgrind instruction counts: Scripts/check-benchmark-gates.py [--update]
// `Repeat` is a symbolic link to the repository root, which gives the root
// package a stable identity ("repeat") whatever the checkout is called.
let package = Package(
    name: "RepeatBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: "Repeat"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(name: "CMeasuredRegion", path: "Sources/CMeasuredRegion"),
        .target(
            name: "BenchmarkWorkloads",
            dependencies: [
                .product(name: "FeedParsing", package: "Repeat"),
                .product(name: "GeoCore", package: "Repeat"),
                .product(name: "Geofencing", package: "Repeat"),
                .product(name: "Recurrence", package: "Repeat"),
            ],
            path: "Sources/BenchmarkWorkloads"
        ),
        // The CI gate's work, apart from BenchmarkWorkloads: it links Pipeline,
        // whose malloc counter hides allocations from package-benchmark's.
        .target(
            name: "GateWorkloads",
            dependencies: ["BenchmarkWorkloads", "CMeasuredRegion", .product(name: "Pipeline", package: "Repeat")],
            path: "Sources/GateWorkloads"
        ),
        // Runs one GateWork once, for callgrind (Scripts/check-benchmark-gates.py).
        .executableTarget(name: "gate-count", dependencies: ["GateWorkloads"], path: "Sources/GateCount"),
        .executableTarget(
            name: "RecurrenceBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Recurrence", package: "Repeat"),
            ],
            path: "Benchmarks/RecurrenceBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "GeofenceBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "GeoCore", package: "Repeat"),
                .product(name: "Geofencing", package: "Repeat"),
                "BenchmarkWorkloads",
            ],
            path: "Benchmarks/GeofenceBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "DecodeBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "FeedParsing", package: "Repeat"),
                .product(name: "Pipeline", package: "Repeat"),
                "BenchmarkWorkloads",
            ],
            path: "Benchmarks/DecodeBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ReplayBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "FeedParsing", package: "Repeat"),
                .product(name: "Geofencing", package: "Repeat"),
                .product(name: "Pipeline", package: "Repeat"),
                "BenchmarkWorkloads",
            ],
            path: "Benchmarks/ReplayBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ScalingBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "FeedParsing", package: "Repeat"),
                .product(name: "Geofencing", package: "Repeat"),
                .product(name: "Pipeline", package: "Repeat"),
                "BenchmarkWorkloads",
            ],
            path: "Benchmarks/ScalingBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "GenerateBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "FeedParsing", package: "Repeat"),
                .product(name: "Pipeline", package: "Repeat"),
                .product(name: "Simulation", package: "Repeat"),
            ],
            path: "Benchmarks/GenerateBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "GateBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Pipeline", package: "Repeat"),
                "GateWorkloads",
            ],
            path: "Benchmarks/GateBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "EvaluateBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Evaluation", package: "Repeat"),
                .product(name: "FeedParsing", package: "Repeat"),
                .product(name: "GeoCore", package: "Repeat"),
                .product(name: "Geofencing", package: "Repeat"),
                .product(name: "Pipeline", package: "Repeat"),
                "BenchmarkWorkloads",
            ],
            path: "Benchmarks/EvaluateBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
