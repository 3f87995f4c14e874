import BenchmarkWorkloads
import CMeasuredRegion
import FeedParsing
import GeoCore
import Geofencing
import Pipeline

/// The work the project's CI gate measures on figures that do not depend on
/// the machine's load: GateBenchmarks counts its allocations (and, where
/// `perf_event_open` is allowed, its instructions); `gate-count` runs it
/// once under callgrind, which counts the instructions of
/// ``inMeasuredRegion(_:)`` alone, not the setup. The raw values are the
/// benchmarks' names, which are also the threshold files' names.
public enum GateWork: String, CaseIterable, Sendable {
    /// 1 000 walk positions looked up in a grid of 10 000 city regions.
    case gridQuery = "grid-query_city_10k-regions_1k-positions"
    /// The 100k-fix walk decoded from NMEA (an RMC and a GGA per fix).
    case decodeNMEA = "decode-nmea_100k-fixes"
    /// The 100k-fix walk decoded from GPX 1.1.
    case decodeGPX = "decode-gpx_100k-fixes"
    /// The 100k-fix walk decoded from CSV (`time,lat,lon`, RFC 3339 times).
    case decodeCSV = "decode-csv_100k-fixes"
    /// The 100k-fix NMEA walk replayed through the whole pipeline over
    /// 10 000 regions and 1 000 tasks (``ReplayWorkload``).
    case replay = "replay-nmea_100k-fixes_10k-regions_1k-tasks"

    /// Fixes in the decode and replay feeds.
    static let fixes = 100_000

    /// Positions (query) or fixes (decode, replay) one run handles: the
    /// divisor of per-fix figures.
    public var items: Int { self == .gridQuery ? 1_000 : Self.fixes }

    /// What one run did.
    public struct Outcome: Sendable, Equatable {
        /// Positions or fixes handled; equals ``GateWork/items`` when
        /// nothing was lost.
        public var handled = 0
        /// Regions found (query) or reminders given (replay).
        public var found = 0
    }

    /// Sets up the workload (files written on first use, the grid built)
    /// and returns what readies one run: a call does the run's own setup
    /// (the replay's fresh pipeline), which is not measured, and returns the
    /// measured work.
    public func prepare() throws -> () -> () -> Outcome {
        switch self {
        case .gridQuery:
            var workload = GeofenceWorkload(layout: .city, seed: 11)
            let grid = SpatialGrid(shapes: workload.regions(count: 10_000))
            let points = workload.walks(count: 1_000, tracks: 1)
            return { { Self.query(grid, points) } }
        case .decodeNMEA, .decodeGPX, .decodeCSV:
            let (format, file): (FeedFormat, WalkFile.Format) =
                switch self {
                case .decodeGPX: (.gpx, .gpx)
                case .decodeCSV: (.csv, .csv)
                default: (.nmea, .nmea)
                }
            let path = try WalkFile.path(file, fixes: Self.fixes)
            return { { Self.decode(path: path, format: format) } }
        case .replay:
            let path = try WalkFile.path(.nmea, fixes: Self.fixes)
            let tasks = ReplayWorkload.tasks(count: 1_000)
            let regions = ReplayWorkload.regions(count: 10_000, tasks: 1_000)
            return {
                let stage = ReminderStage(tasks: tasks, regions: regions, settings: .init())
                var pipeline = ReminderPipeline(reminders: stage, geofence: GeofenceSettings(), reorderSeconds: 5)
                return { Self.replay(path: path, through: &pipeline) }
            }
        }
    }

    private static func query(_ grid: SpatialGrid, _ points: [Coordinate]) -> Outcome {
        var outcome = Outcome()
        for point in points {
            grid.forEachRegion(containing: point) { _ in outcome.found += 1 }
            outcome.handled += 1
        }
        return outcome
    }

    private static func decode(path: String, format: FeedFormat) -> Outcome {
        var outcome = Outcome()
        try? FeedFileDecoding.decode(path: path, format: format, options: FeedDecodingOptions()) { batch in
            outcome.handled += batch.fixes.count
            return true
        }
        return outcome
    }

    private static func replay(path: String, through pipeline: inout ReminderPipeline) -> Outcome {
        var events: [ReminderPipeline.Event] = []
        var outcome = Outcome()
        try? FeedFileDecoding.decode(path: path, format: .nmea, options: FeedDecodingOptions()) { batch in
            events.removeAll(keepingCapacity: true)
            pipeline.push(contentsOf: batch.fixes[...], into: &events)
            for case .reminder(.notify) in events { outcome.found += 1 }
            return true
        }
        pipeline.finish(into: &events)
        outcome.handled = pipeline.statistics.detector.accepted
        return outcome
    }
}

/// `body`'s result, computed inside the C function `repeat_measured_region`
/// (CMeasuredRegion), the one frame callgrind's `--toggle-collect` counts.
/// Regions must not nest: callgrind's toggle would switch off inside.
public func inMeasuredRegion<T>(_ body: () -> T) -> T {
    withoutActuallyEscaping(body) { body in
        var result: T?
        var run = { result = body() }
        withUnsafeMutablePointer(to: &run) { run in
            repeat_measured_region({ $0!.assumingMemoryBound(to: (() -> Void).self).pointee() }, run)
        }
        return result!
    }
}
