import ArgumentParser
import GeoCore
import Simulation

extension MotionProfile: ExpressibleByArgument {}
extension Environment: ExpressibleByArgument {}

/// How the simulated person moves along a route (`generate`).
struct MotionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("walk (1.4 m/s), bike (4.5 m/s) or car (13.9 m/s).", valueName: "profile"))
    var profile = MotionProfile.walk

    @Option(help: ArgumentHelp("Speed in metres per second, instead of the profile's.", valueName: "m/s"))
    var speed: Double?

    @Option(
        help: ArgumentHelp("Stop this long at each interior vertex of the route. (default: 0s)", valueName: "duration"),
        transform: DurationArgument.parse)
    var stop: DurationArgument?

    /// Metres per second.
    var metresPerSecond: Double { speed ?? profile.speed }

    /// Problems with the values, as sentences for a usage error.
    func problems() -> [String] {
        var found: [String] = []
        if let speed, !(speed > 0 && speed.isFinite) { found.append("--speed must be a positive number of metres per second") }
        if let problem = stop?.fixedLengthProblem(flag: "--stop") { found.append(problem) }
        return found
    }
}

/// The GNSS error model (`generate`): a preset, and its values one by one.
struct ErrorModelOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Error preset: none, open-sky (σ 2 m), suburban (4 m), urban (8 m), wifi (20 m) or cell (500 m).",
            discussion: """
                Per axis: a Gauss–Markov bias (σ_b, time constant τ) plus white jitter (σ_w), plus \
                outliers (probability p, D metres off, reported accuracy unchanged). Reported accuracy \
                is 1.515·√(σ_w² + σ_b²); HDOP = accuracy / 5.
                """,
            valueName: "preset"))
    var environment: Environment = .errorFree

    @Option(help: ArgumentHelp("White jitter σ_w per axis, metres (overrides the preset's).", valueName: "metres"))
    var noise: Double?

    @Option(help: ArgumentHelp("Correlated bias σ_b per axis, metres (overrides the preset's).", valueName: "metres"))
    var bias: Double?

    @Option(
        help: ArgumentHelp("The bias's time constant τ (overrides the preset's; default 60s).", valueName: "duration"),
        transform: DurationArgument.parse)
    var biasTime: DurationArgument?

    @Option(help: ArgumentHelp("Outliers: probability p per fix and distance D in metres, e.g. 0.01:50.", valueName: "p:D"))
    var outliers: String?

    /// The model these flags describe.
    /// - Throws: a `ValidationError` naming the flag.
    func model() throws -> ErrorModel {
        do {
            return try environment.errorModel.overriding(
                noise: noise, bias: bias, biasTime: biasTime?.seconds, outliers: try outliers.map(Self.outliers))
        } catch {
            throw ValidationError(error.description)
        }
    }

    private static func outliers(_ text: String) throws(SimulationError) -> ErrorModel.Outliers {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let p = Double(parts[0]), let distance = Double(parts[1]) else {
            throw .invalidValue("--outliers", "takes p:D, a probability and metres, e.g. 0.01:50 (got '\(text)')")
        }
        return try ErrorModel.Outliers(probability: p, distance: distance)
    }
}

/// Sampling and delivery (`generate`).
struct DeliveryOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("One fix every this long. (default: 1s)", valueName: "duration"), transform: DurationArgument.parse)
    var interval = DurationArgument(1, .seconds)

    @Option(help: ArgumentHelp("Drop each fix with this probability (0…1).", valueName: "p"))
    var dropout = 0.0

    @Option(help: ArgumentHelp("A tunnel: no fix from START (RFC 3339) for DURATION; repeatable.", valueName: "start,duration"))
    var gap: [String] = []

    @Option(
        help: ArgumentHelp("Deliver the first DURATION as invalid epochs (a receiver's cold start).", valueName: "duration"),
        transform: DurationArgument.parse)
    var coldStart: DurationArgument?

    @Option(
        help: ArgumentHelp("Shuffle delivery: no fix arrives more than this after one stamped later.", valueName: "duration"),
        transform: DurationArgument.parse)
    var reorder: DurationArgument?

    @Option(help: ArgumentHelp("Repeat each fix with this probability (0…1), as batched uploads do.", valueName: "p"))
    var duplicates = 0.0

    /// The settings these flags describe, sampling from `start` if given.
    /// - Throws: a `ValidationError` naming the flag.
    func settings(start: Timestamp?) throws -> DeliverySettings {
        for (flag, value) in [("--interval", interval), ("--cold-start", coldStart), ("--reorder", reorder)] {
            if let problem = value?.fixedLengthProblem(flag: flag) { throw ValidationError(problem) }
        }
        do {
            return try DeliverySettings(
                interval: interval.seconds ?? 1, start: start, dropout: dropout, gaps: try gap.map(Self.gap),
                coldStart: coldStart?.seconds ?? 0, reorder: reorder?.seconds ?? 0, duplicates: duplicates)
        } catch let error as SimulationError {
            throw ValidationError(error.description)
        }
    }

    private static func gap(_ text: String) throws -> DeliverySettings.Gap {
        let parts = text.split(separator: ",", maxSplits: 1).map(String.init)
        let usage = "--gap takes START,DURATION, e.g. 2025-03-01T10:05:00Z,90s (got '\(text)')"
        guard parts.count == 2, let duration = try? DurationArgument.parse(parts[1]), let seconds = duration.seconds else {
            throw ValidationError(usage)
        }
        guard let start = ArgumentParsers.feedTime(parts[0]) else {
            throw ValidationError(ArgumentParsers.refusedFeedTime(parts[0], flag: "--gap's START", otherwise: usage))
        }
        return try DeliverySettings.Gap(start: start, duration: seconds)
    }
}
