import Foundation
import GeoCore
import Geofencing

/// The geofence mode of `repeat-sim bench`: build the spatial grid, time
/// its queries, and run the brute-force reference on a sample of the same
/// positions in the same process, so that the ratio holds on a noisy machine.
public enum IndexBench {
    /// What one run measured; ``json`` is DESIGN.md's contract.
    public struct Result: Sendable {
        /// Regions indexed.
        public var regions: Int
        /// Positions looked up.
        public var positions: Int
        /// Seconds to build the grid.
        public var buildSeconds: Double
        /// Seconds to look up every position.
        public var querySeconds: Double
        /// Region hits over all positions.
        public var hits: Int
        /// Regions tested per position (a sample of the positions).
        public var candidatesPerPosition: Double
        /// The process's peak resident memory.
        public var peakRSSMegabytes: Double
        /// Positions the brute force looked up.
        public var bruteForceSample: Int
        /// The brute force's rate.
        public var bruteForcePositionsPerSecond: Double
        /// Whether the grid answered every sampled position as the brute force did.
        public var bruteForceAgrees: Bool
        /// Bytes the grid holds.
        public var indexBytes: Int
        /// The grid's layout, for people.
        public var layout: String

        /// The grid's rate.
        public var positionsPerSecond: Double { Double(positions) / max(querySeconds, 1e-9) }

        private func rounded(_ value: Double, _ digits: Int) -> Double { IndexBench.rounded(value, digits) }

        /// The one JSON object of `bench --json`, exactly DESIGN.md's fields.
        public var json: String {
            "{\"regions\":\(regions),\"positions\":\(positions),\"build_s\":\(rounded(buildSeconds, 6)),"
                + "\"query_s\":\(rounded(querySeconds, 6)),\"positions_per_s\":\(rounded(positionsPerSecond, 1)),"
                + "\"hits\":\(hits),\"candidates_per_position\":\(rounded(candidatesPerPosition, 3)),"
                + "\"peak_rss_mb\":\(rounded(peakRSSMegabytes, 1)),"
                + "\"bruteforce_positions_per_s\":\(rounded(bruteForcePositionsPerSecond, 1)),"
                + "\"bruteforce_agrees\":\(bruteForceAgrees)}"
        }

        /// `index: LAYOUT; N bytes, B bytes/region`, for stderr beside the JSON.
        public var indexLine: String {
            "index: \(layout); \(indexBytes) bytes, \(rounded(Double(indexBytes) / Double(max(regions, 1)), 1)) bytes/region"
        }

        /// The readable table.
        public var table: String {
            let rows: [(String, String)] = [
                ("regions", "\(regions)"),
                ("positions", "\(positions)"),
                ("index build", "\(rounded(buildSeconds * 1000, 2)) ms"),
                ("index memory", "\(rounded(Double(indexBytes) / Double(max(regions, 1)), 1)) bytes/region"),
                ("grid layout", layout),
                ("query", "\(rounded(querySeconds, 3)) s"),
                ("grid lookups", "\(RateText.of(positionsPerSecond)) positions/s"),
                ("hits", "\(hits)"),
                ("candidates/position", "\(rounded(candidatesPerPosition, 2))"),
                (
                    "brute force lookups",
                    "\(RateText.of(bruteForcePositionsPerSecond)) positions/s (sample of \(bruteForceSample))"
                ),
                ("speed-up over brute force", "\(rounded(positionsPerSecond / max(bruteForcePositionsPerSecond, 1e-9), 1))×"),
                ("grid agrees with brute force", bruteForceAgrees ? "yes" : "NO"),
                ("peak RSS", "\(rounded(peakRSSMegabytes, 1)) MB"),
            ]
            let width = rows.map(\.0.count).max()!
            return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }
                .joined(separator: "\n")
        }
    }

    /// Builds the grid, times the queries, and checks a brute-force sample.
    public static func measure(shapes: [Shape], points: [Coordinate], progress: ProgressBar) -> Result {
        let clock = ContinuousClock()
        let buildStart = clock.now
        let grid = SpatialGrid(shapes: shapes)
        let buildSeconds = seconds(clock.now - buildStart)

        var hits = 0
        let chunk = max(1, points.count / 100)
        let queryStart = clock.now
        var start = 0
        while start < points.count {
            let end = min(points.count, start + chunk)
            for i in start..<end {
                grid.forEachRegion(containing: points[i]) { _ in hits += 1 }
            }
            start = end
            progress.show("grid", fraction: Double(end) / Double(points.count))
        }
        let querySeconds = seconds(clock.now - queryStart)

        var candidates = 0
        let candidateStride = max(1, points.count / 100_000)
        var candidateSamples = 0
        for i in stride(from: 0, to: points.count, by: candidateStride) {
            candidates += grid.candidateCount(at: points[i])
            candidateSamples += 1
        }

        // Brute force on an evenly spread sample, about 5·10⁷ region tests.
        let sampleSize = min(points.count, max(20, 50_000_000 / max(shapes.count, 1)))
        let sample = (0..<sampleSize).map { points[$0 * points.count / sampleSize] }
        let brute = BruteForceIndex(shapes: shapes)
        var bruteHits: [[Int]] = []
        bruteHits.reserveCapacity(sample.count)
        let bruteStart = clock.now
        for (i, point) in sample.enumerated() {
            bruteHits.append(brute.regions(containing: point))
            if i % max(1, sample.count / 100) == 0 {
                progress.show("brute force", fraction: Double(i + 1) / Double(sample.count))
            }
        }
        let bruteSeconds = seconds(clock.now - bruteStart)
        progress.clear()
        let agrees = zip(sample, bruteHits).allSatisfy { grid.regions(containing: $0) == $1 }

        return Result(
            regions: grid.count, positions: points.count, buildSeconds: buildSeconds,
            querySeconds: querySeconds, hits: hits,
            candidatesPerPosition: Double(candidates) / Double(max(candidateSamples, 1)),
            peakRSSMegabytes: peakResidentMegabytes(), bruteForceSample: sample.count,
            bruteForcePositionsPerSecond: Double(sample.count) / max(bruteSeconds, 1e-9),
            bruteForceAgrees: agrees, indexBytes: grid.memoryFootprint, layout: grid.layoutDescription)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }

    /// VmHWM from /proc/self/status, in MB (0 where unavailable).
    private static func peakResidentMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.dropFirst(6).filter(\.isNumber)
            return (Double(String(digits)) ?? 0) / 1024
        }
        return 0
    }

    /// `value` rounded to `digits` decimals.
    private static func rounded(_ value: Double, _ digits: Int) -> Double {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
