import GeoCore
import Geofencing
import Testing

@testable import Pipeline

/// The pure parts of `bench --feed`'s gates: expectations, the baseline's
/// comparison, the correctness check, the stream sample and the counters.
@Suite("bench gates")
struct BenchGateTests {
    /// A result whose figures are known: 1 000 fixes, 2 000 allocations in the
    /// pipeline, a grid 40 times faster than the brute force.
    func result(disagreements: Int = 0) -> FeedBench.Result {
        var result = FeedBench.Result()
        result.feeds = ["a.nmea"]
        result.fixes = 1_000
        result.regions = 10
        result.pipelineSeconds = 0.5
        result.decodeSeconds = 0.25
        result.pipelineVsDecode = 0.5
        result.pipelineAllocations = 2_000
        result.indexBytes = 1_000
        result.index.sample = 100
        result.index.disagreements = disagreements
        result.index.candidatesPerPosition = 4
        result.index.indexSecondsPerPosition = 1e-6
        result.index.referenceSecondsPerPosition = 4e-5
        return result
    }

    @Test("figures derive from the counts: rates, ratios, per-fix and per-region")
    func figures() throws {
        let metrics = Dictionary(uniqueKeysWithValues: result().metrics.map { ($0.name, $0.value) })
        #expect(metrics["fixes_per_s"] == 2_000)
        #expect(metrics["decode_fixes_per_s"] == 4_000)
        #expect(metrics["allocations_per_1k_fixes"] == 2_000)
        #expect(metrics["bytes_per_region"] == 100)
        #expect(abs(try #require(metrics["index_vs_bruteforce"] ?? nil) - 40) < 1e-9)
        #expect(metrics["instructions_per_fix"] == .some(nil))
        #expect(FeedBench.metricNames.count == Set(FeedBench.metricNames).count)
    }

    @Test("expectations compare one figure; an unknown name suggests the nearest")
    func expectations() throws {
        let metrics = result().metrics
        #expect(try BenchExpectation(parsing: "index_vs_bruteforce >= 40", names: FeedBench.metricNames).holds(in: metrics))
        #expect(try !BenchExpectation(parsing: "fixes_per_s>2e3", names: FeedBench.metricNames).holds(in: metrics))
        #expect(try !BenchExpectation(parsing: "instructions_per_fix<1", names: FeedBench.metricNames).holds(in: metrics))
        #expect(throws: BenchExpectationError.unknownMetric("allocations_per_fix", suggestion: "allocations_per_1k_fixes")) {
            try BenchExpectation(parsing: "allocations_per_fix<=1", names: FeedBench.metricNames)
        }
        #expect(throws: BenchExpectationError.badValue("fixes_per_s>=fast")) {
            try BenchExpectation(parsing: "fixes_per_s>=fast", names: FeedBench.metricNames)
        }
        do {
            _ = try BenchExpectation(parsing: ">=1", names: FeedBench.metricNames)
            Issue.record("an expectation without a figure was taken")
        } catch {
            #expect("\(error)" == "--expect: no figure before the comparison; write NAME>=VALUE, e.g. index_vs_bruteforce>=50")
        }
    }

    @Test("the baseline gates load-independent figures and ratios by direction, never absolute rates")
    func baseline() {
        let baseline = BenchBaseline(
            path: "b.json",
            values: [
                "allocations_per_1k_fixes": 1_000, "index_vs_bruteforce": 41, "fixes_per_s": 1e9, "bytes_per_region": 100,
                "pipeline_vs_decode": 0.5, "fixes": 999,
            ])
        let report = BenchReport(result: result(), expectations: [], baseline: baseline, maxRegression: 0.1)
        let checks = Dictionary(uniqueKeysWithValues: report.checks.map { ($0.name, $0) })
        #expect(checks["fixes_per_s"] == nil)
        #expect(checks["allocations_per_1k_fixes"]?.regression == 1)
        #expect(checks["allocations_per_1k_fixes"]?.holds == false)
        #expect(abs((checks["index_vs_bruteforce"]?.regression ?? 0) - 1.0 / 41) < 1e-12)
        #expect(checks["index_vs_bruteforce"]?.holds == true)
        #expect(checks["bytes_per_region"]?.regression == 0)
        #expect(
            report.failures == [
                "regression: allocations_per_1k_fixes is 2000, 100 % worse than the baseline's 1000 (allowed: 10 %)"
            ])
        #expect(report.caveats.contains("fixes: 1000 here, 999 in the baseline (another workload or changed results?)"))
    }

    @Test("a baseline without one gated figure is refused: it would pass any run")
    func baselineThatGatesNothing() throws {
        #expect(FeedBench.gatedMetricNames.contains("pipeline_vs_decode") && !FeedBench.gatedMetricNames.contains("fixes_per_s"))
        let rates = BenchBaseline(path: "rates.json", values: ["fixes_per_s": 1e6, "fixes": 312])
        do {
            try rates.requireFigure(among: FeedBench.gatedMetricNames)
            Issue.record("a baseline of rates and counts only was taken")
        } catch {
            #expect(error.message.hasPrefix("--baseline: \"rates.json\" holds none of the figures a baseline gates ("))
        }
        try BenchBaseline(path: "one.json", values: ["bytes_per_region": 597]).requireFigure(among: FeedBench.gatedMetricNames)
    }

    @Test("an index that disagrees with the brute force fails the run, whatever else holds")
    func correctness() throws {
        /// The brute force, losing every second region.
        struct LossyIndex: RegionIndex {
            var reference = BruteForceIndex()
            var count: Int { reference.count }
            mutating func insert(_ shape: Shape, forKey key: Int) { reference.insert(shape, forKey: key) }
            mutating func remove(key: Int) -> Bool { reference.remove(key: key) }
            func forEachRegion(containing point: Coordinate, _ body: (Int) -> Void) {
                reference.forEachRegion(containing: point) { if $0 % 2 == 0 { body($0) } }
            }
            func forEachCandidate(intersecting box: BoundingBox, _ body: (Int) -> Void) {
                reference.forEachCandidate(intersecting: box, body)
            }
        }
        let shapes = (0..<4).map {
            Shape.circle(centre: Coordinate(latitude: 52.52, longitude: 13.40 + 0.001 * Double($0)), radius: 100)
        }
        let sample = [
            Coordinate(latitude: 52.52, longitude: 13.40), Coordinate(latitude: 52.52, longitude: 13.403),
            Coordinate(latitude: 10, longitude: 10),
        ]
        let grid = SpatialGrid(shapes: shapes)
        let reference = BruteForceIndex(shapes: shapes)
        #expect(IndexComparison.disagreements(grid, reference, on: sample) == 0)
        #expect(IndexComparison.disagreements(LossyIndex(shapes: shapes), reference, on: sample) == 2)
        let measured = IndexComparison.measure(grid: grid, reference: reference, sample: sample, rounds: 1)
        #expect(measured.disagreements == 0)
        #expect(measured.sample == 3)

        let report = BenchReport(result: result(disagreements: 3), expectations: [], baseline: nil, maxRegression: 0.1)
        #expect(!report.passed)
        #expect(report.failures == ["wrong results: the spatial grid disagrees with the brute force on 3 of 100 sampled fixes"])
        #expect(report.json.contains("\"bruteforce_agrees\":false"))
        #expect(report.json.hasSuffix("\"passed\":false}"))
    }

    @Test("the stream sample stays evenly spread and bounded however long the stream")
    func streamSample() {
        for length in [0, 1, 7, 100, 1_000, 12_345] {
            var sample = StreamSample<Int>(capacity: 50)
            for i in 0..<length { sample.offer(i) }
            #expect(sample.items.count <= 100)
            #expect(sample.items.count >= min(length, 50))
            let gaps = Set(zip(sample.items, sample.items.dropFirst()).map { $1 - $0 })
            #expect(gaps.count <= 1, "length \(length): gaps \(gaps)")
            #expect(sample.evenly(10).count == min(10, sample.items.count))
        }
    }

    @Test("allocations are counted in process: 1 000 boxes take 1 000 more (other tests may add theirs)")
    func allocationCounter() {
        guard AllocationCounter.isAvailable else { return }
        final class Box { let value: Int; init(_ value: Int) { self.value = value } }
        let before = AllocationCounter.count
        let boxes = (0..<1_000).map(Box.init)
        let after = AllocationCounter.count
        #expect(boxes.count == 1_000)
        #expect(after - before >= 1_000)
    }
}
