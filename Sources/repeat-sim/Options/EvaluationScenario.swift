import ArgumentParser
import Foundation
import GeoCore
import Pipeline
import Simulation

/// `evaluate --scenario FILE.json`: a simulation written as `generate`'s
/// flags, and the places to score it on.
///
/// Keys are `generate`'s flag names without dashes (`"via"`, `"profile"`,
/// `"environment"`, `"interval"`, `"devices"`, `"gap"`: […], `"keep-times"`:
/// true, …; `"route"` is the ROUTE file), plus `"regions"` and `"tasks"`
/// for `evaluate`. Paths are relative to the scenario file. `"seed"` and
/// output flags are refused: runs take seeds 1…N, and nothing is written.
///
/// ```json
/// {"via": "52.5200,13.4050;52.5163,13.3777", "profile": "car",
///  "environment": "urban", "interval": "60s", "regions": "shops.csv"}
/// ```
struct EvaluationScenario {
    /// The generate command the keys describe.
    let generate: GenerateCommand
    /// The regions file, resolved.
    let regions: String?
    /// The tasks file, resolved.
    let tasks: String?
    /// Seconds between truth points.
    let truthInterval: Double

    /// Keys that name files, resolved against the scenario's folder.
    private static let pathKeys: Set<String> = ["route", "itinerary", "probe", "regions", "tasks"]
    /// `generate` flags that make no sense in process.
    private static let refusedKeys: Set<String> = [
        "seed", "out", "pty", "format", "talker", "pace", "baud", "no-wait", "truth", "manifest",
    ]
    /// `evaluate`'s own flags that `generate` lacks: they belong on the
    /// command line, beside `--scenario`.
    static let evaluateKeys: Set<String> = [
        "runs", "sweep", "expect", "window", "json", "report", "jobs", "shard", "truth-events", "scenario", "strict",
        "verbose", "hysteresis", "confirm", "exit-confirm", "dwell", "no-cross", "max-accuracy", "cooldown", "lead",
        "no-initial-enter", "monitor-limit", "pending-limit", "reorder-window", "device-idle", "date", "columns",
        "radius",
    ]

    /// Reads the scenario at `path`.
    /// - Throws: ``EvaluateFailure`` naming the file and the key.
    init(path: String) throws {
        let object: [String: ScenarioValue]
        do {
            object = try JSONDecoder().decode([String: ScenarioValue].self, from: try readInput(path))
        } catch let error as UnreadableFile {
            throw error
        } catch {
            throw EvaluateFailure(
                "\(path): a scenario is a JSON object of generate's flags (strings, numbers, Booleans or lists), "
                    + "e.g. {\"via\": \"52.52,13.40;52.53,13.41\", \"interval\": \"60s\"}")
        }
        let folder = (path as NSString).deletingLastPathComponent
        func resolved(_ file: String) -> String {
            file.hasPrefix("/") || folder.isEmpty ? file : (folder as NSString).appendingPathComponent(file)
        }
        var arguments: [String] = []
        var regions: String?
        var tasks: String?
        var truthInterval = 1.0
        for key in object.keys.sorted() {
            let value = object[key]!
            if Self.evaluateKeys.contains(key) {
                throw EvaluateFailure(
                    "\(path): \"\(key)\" is a flag of evaluate, not of the scenario: give it on the command line "
                        + "(--\(key) …) beside --scenario")
            }
            if let refused = Self.refusedKeys.first(where: { $0 == key }) {
                throw EvaluateFailure(
                    "\(path): \"\(refused)\" has no place in a scenario (runs use seeds 1…--runs, and nothing is written)")
            }
            let texts = value.texts.map { Self.pathKeys.contains(key) ? resolved($0) : $0 }
            switch key {
            case "regions": regions = texts.first
            case "tasks": tasks = texts.first
            case "route": arguments += texts
            case "truth-interval":
                guard let seconds = try? DurationArgument.parse(texts.first ?? "").seconds, seconds > 0 else {
                    throw EvaluateFailure("\(path): \"truth-interval\" must be a duration like 1s")
                }
                truthInterval = seconds
            default:
                switch value {
                case .flag(true): arguments.append("--\(key)")
                case .flag(false): break
                // `--key=value`: a value that starts with a dash (`-5s`)
                // is the key's, not an option of its own.
                default: for text in texts { arguments.append("--\(key)=\(text)") }
                }
            }
        }
        do {
            // Nothing is written; CSV carries any number of devices, so
            // generate's output checks pass.
            generate = try GenerateCommand.parse(arguments + ["--format", "csv"])
        } catch {
            throw EvaluateFailure("\(path): \(GenerateCommand.message(for: error))")
        }
        self.regions = regions
        self.tasks = tasks
        self.truthInterval = truthInterval
    }

    /// Run `seed` scored by `evaluation` as it is generated, nothing kept
    /// (see ``FeedEvaluation/score(feed:truth:settings:jobs:)``), with the
    /// span of its fixes' times; `progress`, when given, is told how far
    /// through the run's time the feed is (0…1) every so many fixes.
    func score(
        seed: Int, evaluation: FeedEvaluation, settings: [EvaluationSetting], jobs: Int,
        progress: (@Sendable (Double) -> Void)? = nil
    ) throws -> ScoredRun {
        let (simulation, truth) = try run(seed: seed)
        let start = simulation.devices.map(\.path.start).min() ?? Timestamp(nanoseconds: 0)
        let span = max((simulation.devices.map(\.path.end).max() ?? start).nanoseconds(since: start), 1)
        let times = FeedSpanBox()
        let scored = evaluation.score(
            feed: {
                var count = 0
                return simulation.fixes().lazy.compactMap { delivered -> Fix? in
                    count += 1
                    if let progress, count % 65_536 == 0, let time = delivered.fix.time {
                        progress(min(max(time.nanoseconds(since: start) / span, 0), 1))
                    }
                    guard delivered.valid else { return nil }
                    times.span.add(delivered.fix)
                    return delivered.fix
                }
            }, truth: { truth }, settings: settings, jobs: jobs)
        return ScoredRun(truth: scored.truth, detections: scored.detections, span: times.span.value)
    }

    /// Run `seed` generated once more, the fixes a decoder would return
    /// (invalid cold-start epochs carry no fix) and the truth points (in
    /// time order: ``TruthTrack`` merges the devices' samples by time) read
    /// into `plan`'s gatherers, for the report's detail of that run.
    func gather(seed: Int, plan: ReportPlan) throws -> (fixes: FixEvidence, truth: TruthEvidence) {
        let (simulation, truthTrack) = try run(seed: seed)
        let (fixes, points) = plan.gatherers()
        for delivered in simulation.fixes() where delivered.valid { fixes.add(delivered.fix) }
        for point in truthTrack { points.add(point) }
        precondition(points.isInTimeOrder, "a generated truth comes in time order")
        return (fixes, points)
    }

    /// The simulation of run `seed` and its truth at ``truthInterval``.
    private func run(seed: Int) throws -> (FeedSimulation, TruthTrack) {
        let simulation = try generate.simulation(seed: UInt64(seed))
        do { return (simulation, try simulation.truth(interval: truthInterval)) } catch {
            throw EvaluateFailure("truth-interval: \(error)")
        }
    }
}

/// One scenario run scored: its truth, what each setting detected, and
/// the first and last time of its fixes.
struct ScoredRun {
    var truth: FeedEvaluation.Truth
    var detections: [FeedEvaluation.Detection]
    var span: (start: Timestamp, end: Timestamp)
}

/// The span of a run's fix times, written by the thread that generates the
/// feed and read once the run is scored.
private final class FeedSpanBox: @unchecked Sendable {
    var span = FeedSpan()
}

/// A value of a scenario key.
private enum ScenarioValue: Decodable {
    case text(String)
    case flag(Bool)
    case number(Double)
    case list([ScenarioValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            self = .flag(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .text(text)
        } else {
            self = .list(try container.decode([ScenarioValue].self))
        }
    }

    /// The value as flag texts (a list gives one per element).
    var texts: [String] {
        switch self {
        case .text(let text): return [text]
        case .flag(let flag): return [flag ? "true" : "false"]
        case .number(let number):
            return [number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)]
        case .list(let values): return values.flatMap(\.texts)
        }
    }
}

/// Why an evaluation could not run, once its flags were accepted: a plain
/// error (exit 1) without the usage text.
struct EvaluateFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
