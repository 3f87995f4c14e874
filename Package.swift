// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Repeat",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "repeat-sim", targets: ["repeat-sim"]),
        .library(name: "GeoCore", targets: ["GeoCore"]),
        .library(name: "Recurrence", targets: ["Recurrence"]),
        .library(name: "FeedParsing", targets: ["FeedParsing"]),
        .library(name: "Geofencing", targets: ["Geofencing"]),
        .library(name: "Simulation", targets: ["Simulation"]),
        .library(name: "Evaluation", targets: ["Evaluation"]),
        .library(name: "Reporting", targets: ["Reporting"]),
        .library(name: "Pipeline", targets: ["Pipeline"]),
        .library(name: "TaskStore", targets: ["TaskStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // MARK: Pure cores
        .target(name: "GeoCore"),
        .target(name: "Recurrence", dependencies: ["GeoCore"]),
        .target(name: "Geofencing", dependencies: ["GeoCore"]),
        // sincos(3) for Box–Muller, which Glibc's Swift module does not declare.
        .target(name: "CSimulationMath"),
        .target(name: "Simulation", dependencies: ["GeoCore", "CSimulationMath"]),
        .target(name: "Evaluation", dependencies: ["FeedParsing", "GeoCore", "Geofencing"]),
        .target(name: "Reporting", dependencies: ["GeoCore"]),

        // MARK: Decoders (bytes in, fixes out)
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .target(name: "FeedParsing", dependencies: ["GeoCore", "CLibXML2"]),

        // MARK: Edges
        // Counts the process's heap allocations (malloc interposed) and its
        // instructions (perf_event_open) for `bench`.
        .target(name: "CProcessCounters"),
        // A prefetch hint: the scheduler reads its next task's state ahead.
        .target(name: "CMemoryHints"),
        .target(
            name: "Pipeline",
            dependencies: [
                "GeoCore", "Recurrence", "FeedParsing", "Geofencing", "Simulation", "Evaluation", "Reporting",
                "CProcessCounters", "CMemoryHints",
            ]
        ),
        .target(
            name: "TaskStore",
            dependencies: ["Recurrence", "Pipeline", .product(name: "GRDB", package: "GRDB.swift")]
        ),

        // MARK: Tool
        .executableTarget(
            name: "repeat-sim",
            dependencies: [
                "GeoCore", "Recurrence", "FeedParsing", "Geofencing", "Evaluation", "Pipeline", "TaskStore", "Simulation",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: Tests
        .target(name: "TestSupport", dependencies: ["GeoCore", "CLibXML2"]),
        .testTarget(name: "GeoCoreTests", dependencies: ["GeoCore", "TestSupport"]),
        .testTarget(name: "RecurrenceTests", dependencies: ["Recurrence", "TestSupport"]),
        .testTarget(name: "FeedParsingTests", dependencies: ["FeedParsing", "TestSupport"]),
        .testTarget(name: "GeofencingTests", dependencies: ["Geofencing", "TestSupport"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "TestSupport"]),
        .testTarget(name: "EvaluationTests", dependencies: ["Evaluation", "Geofencing", "TestSupport"]),
        .testTarget(name: "ReportingTests", dependencies: ["Reporting", "GeoCore", "TestSupport"], exclude: ["Goldens"]),
        .testTarget(name: "PipelineTests", dependencies: ["Pipeline", "TestSupport"]),
        .testTarget(
            name: "TaskStoreTests",
            dependencies: ["TaskStore", "Recurrence", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["TestSupport", "TaskStore", "FeedParsing", "GeoCore", "Geofencing", "Simulation", "Evaluation"],
            exclude: ["Snapshots"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
