import FeedParsing
import Foundation
import GeoCore
import Simulation

/// `bench --generate N`: the simulator's throughput — N fixes along a city
/// loop at 1 Hz with a preset's error, encoded and written to a file — and,
/// in the same run, ``ParseBench`` on that file, so that the ratio of
/// generating to decoding holds on a noisy machine.
public enum GenerateBench {
    /// What one run measured.
    public struct Result: Sendable {
        /// Fixes written.
        public var fixes: Int
        /// Bytes written.
        public var bytes: Int
        /// Wall-clock seconds of the generation.
        public var seconds: Double
        /// The decoding of the same file, when measured.
        public var parse: ParseBench.Measurement?
        /// The process's peak resident memory after both.
        public var peakRSSMegabytes: Double

        /// Fixes generated per second.
        public var fixesPerSecond: Double { Double(fixes) / max(seconds, 1e-9) }

        /// One JSON object.
        public var json: String {
            let parseRate = parse.map { Double($0.fixes) / max($0.seconds, 1e-9) } ?? 0
            return "{\"fixes\":\(fixes),\"bytes\":\(bytes),\"seconds\":\(rounded(seconds, 4)),"
                + "\"fixes_per_s\":\(Int(fixesPerSecond)),\"mb_per_s\":\(rounded(Double(bytes) / 1e6 / max(seconds, 1e-9), 1)),"
                + "\"parse_fixes_per_s\":\(Int(parseRate)),\"generate_vs_parse\":\(rounded(fixesPerSecond / max(parseRate, 1e-9), 2)),"
                + "\"peak_rss_mb\":\(rounded(peakRSSMegabytes, 1))}"
        }

        /// A readable report.
        public var text: String {
            let parseRate = parse.map { Double($0.fixes) / max($0.seconds, 1e-9) } ?? 0
            return """
                generate: \(fixes) fixes, \(bytes) bytes in \(ElapsedText.of(seconds)) = \(RateText.of(fixesPerSecond)) fixes/s
                parse the same file (best of \(ParseBench.runs)): \(RateText.of(parseRate)) fixes/s
                generate / parse: \(rounded(fixesPerSecond / max(parseRate, 1e-9), 2))
                peak RSS: \(rounded(peakRSSMegabytes, 1)) MiB
                """
        }

        private func rounded(_ value: Double, _ digits: Int) -> Double {
            var scale = 1.0
            for _ in 0..<digits { scale *= 10 }
            return (value * scale).rounded() / scale
        }
    }

    /// Generates `fixes` fixes in `format` with `environment`'s error into
    /// `path`, then, if `parses`, decodes the file with ``ParseBench``.
    /// - Throws: ``RunError`` when the file cannot be written or read.
    public static func run(
        fixes: Int, format: FeedFormat, environment: Environment, path: String, parses: Bool = true
    ) throws -> Result {
        let start = Timestamp(nanoseconds: 1_736_150_400 * 1_000_000_000)
        let route = try TimedPath.following(
            loop(metres: Double(max(fixes, 2) - 1) * MotionProfile.car.speed), speed: MotionProfile.car.speed, from: start)
        let simulation = try FeedSimulation(
            devices: [SimulatedDevice(name: nil, path: route)], errorModel: environment.errorModel,
            delivery: DeliverySettings(interval: 1, start: start), seed: 1)
        let outputs = GenerateOutputs(
            format: format, talker: .gp, destination: .file(path), truth: nil, truthInterval: 1, manifest: nil)
        let clock = ContinuousClock()
        let began = clock.now
        let summary = try GenerateRun.write(
            simulation, to: outputs, parameters: JSONLine(), progress: ProgressBar(enabled: false))
        let elapsed = clock.now - began
        let parse = parses ? try ParseBench(path: path, format: format).run() : nil
        return Result(
            fixes: summary.fixes, bytes: summary.outputs.first?.bytes ?? 0,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18,
            parse: parse, peakRSSMegabytes: ParseBench.peakResidentMegabytes())
    }

    /// A route of `metres` round a 2 km square in Berlin.
    private static func loop(metres: Double) -> [Coordinate] {
        let corner = Coordinate(latitude: 52.50, longitude: 13.38)
        let east = Geodesy.destination(from: corner, bearing: 90, metres: 2_000)
        let northEast = Geodesy.destination(from: east, bearing: 0, metres: 2_000)
        let north = Geodesy.destination(from: corner, bearing: 0, metres: 2_000)
        let square = [east, northEast, north, corner]
        var route = [corner]
        var left = metres
        while true {
            let next = square[(route.count - 1) % 4]
            let leg = Geodesy.distance(route[route.count - 1], next)
            guard leg < left else {
                route.append(Geodesy.intermediate(from: route[route.count - 1], to: next, fraction: left / leg))
                return route
            }
            route.append(next)
            left -= leg
        }
    }
}
