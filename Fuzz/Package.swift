// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets, one per decoder and loader, in a nested package so that
// the root `swift build` / `swift test` never compile them. They only make
// sense built with coverage and the address sanitizer, which
// Scripts/fuzz.py does:
//   swift build --package-path Fuzz -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address
// (one -sanitize= flag: swiftc keeps only the last one it is given, which is
// why SwiftPM's own `--sanitize fuzzer --sanitize address` builds without
// coverage). The flags reach the root package's modules too, so the fuzzers
// are guided by the coverage of the decoders themselves.
// `Repeat` is a symbolic link to the repository root, as in Benchmarks/.
let package = Package(
    name: "RepeatFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: "Repeat")
    ],
    targets: [
        // The entry-point shim: LLVMFuzzerTestOneInput and a main that runs
        // libFuzzer's driver (SwiftPM links an executable target's own main
        // over libFuzzer's).
        .target(name: "CFuzzerDriver", path: "Sources/CFuzzerDriver"),
        .target(
            name: "FuzzSupport",
            dependencies: [
                "CFuzzerDriver",
                .product(name: "FeedParsing", package: "Repeat"),
                .product(name: "GeoCore", package: "Repeat"),
            ],
            path: "Sources/FuzzSupport"
        ),
        .executableTarget(name: "fuzz-nmea", dependencies: ["FuzzSupport"], path: "Sources/fuzz-nmea"),
        .executableTarget(name: "fuzz-gpx", dependencies: ["FuzzSupport"], path: "Sources/fuzz-gpx"),
        .executableTarget(name: "fuzz-kml", dependencies: ["FuzzSupport"], path: "Sources/fuzz-kml"),
        .executableTarget(name: "fuzz-tcx", dependencies: ["FuzzSupport"], path: "Sources/fuzz-tcx"),
        .executableTarget(name: "fuzz-fit", dependencies: ["FuzzSupport"], path: "Sources/fuzz-fit"),
        .executableTarget(name: "fuzz-csv", dependencies: ["FuzzSupport"], path: "Sources/fuzz-csv"),
        .executableTarget(name: "fuzz-gpsd", dependencies: ["FuzzSupport"], path: "Sources/fuzz-gpsd"),
        .executableTarget(name: "fuzz-takeout", dependencies: ["FuzzSupport"], path: "Sources/fuzz-takeout"),
        .executableTarget(name: "fuzz-timeline", dependencies: ["FuzzSupport"], path: "Sources/fuzz-timeline"),
        .executableTarget(name: "fuzz-sniff", dependencies: ["FuzzSupport"], path: "Sources/fuzz-sniff"),
        .executableTarget(
            name: "fuzz-regions",
            dependencies: [
                "FuzzSupport",
                .product(name: "Geofencing", package: "Repeat"),
                .product(name: "Pipeline", package: "Repeat"),
            ],
            path: "Sources/fuzz-regions"
        ),
        .executableTarget(
            name: "fuzz-places",
            dependencies: [
                "FuzzSupport",
                .product(name: "Geofencing", package: "Repeat"),
                .product(name: "Pipeline", package: "Repeat"),
            ],
            path: "Sources/fuzz-places"
        ),
        .executableTarget(
            name: "fuzz-shard",
            dependencies: ["FuzzSupport", .product(name: "Pipeline", package: "Repeat")],
            path: "Sources/fuzz-shard"
        ),
        .executableTarget(
            name: "fuzz-tasks",
            dependencies: ["FuzzSupport", .product(name: "Recurrence", package: "Repeat")],
            path: "Sources/fuzz-tasks"
        ),
    ],
    swiftLanguageModes: [.v6]
)
