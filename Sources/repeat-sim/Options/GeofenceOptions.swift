import ArgumentParser
import Geofencing

/// The geofence flags of `replay` and `live`: DESIGN.md's settings.
struct GeofenceOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Metres beyond the fence (after accuracy) needed to exit. (default: max(10 m, 10 % of the radius))",
            valueName: "metres"))
    var hysteresis: Double?

    @Option(help: ArgumentHelp("Consecutive inside fixes needed to enter.", valueName: "n"))
    var confirm = 1

    @Option(help: ArgumentHelp("Consecutive clearly-outside fixes needed to exit.", valueName: "n"))
    var exitConfirm = 1

    @Option(
        help: ArgumentHelp("Report dwell after staying inside this long, e.g. 5m. (default: off)", valueName: "duration"),
        transform: DurationArgument.parse)
    var dwell: DurationArgument?

    @Flag(help: "Do not report cross (a segment between two fixes passing through a fence).")
    var noCross = false

    @Option(
        help: ArgumentHelp(
            "Reorder each device's fixes within this window; older ones are dropped. (default: 5s)", valueName: "duration"),
        transform: DurationArgument.parse)
    var reorderWindow = DurationArgument(5, .seconds)

    @Option(
        help: ArgumentHelp(
            "Set a device's state aside, compacted, after this long without a fix (feed time); it is restored when the "
                + "device returns, so the output is the same. (default: 1h)",
            valueName: "duration"),
        transform: DurationArgument.parse)
    var deviceIdle = DurationArgument(1, .hours)

    @Option(help: ArgumentHelp("Fixes with a worse horizontal accuracy change nothing (counted).", valueName: "metres"))
    var maxAccuracy = 100.0

    @Flag(help: "A device's first fix inside a region does not count as an entry.")
    var noInitialEnter = false

    /// The detector settings these flags describe (after ``problems()`` found none).
    var settings: GeofenceSettings {
        GeofenceSettings(
            hysteresis: hysteresis, confirm: confirm, exitConfirm: exitConfirm, dwell: dwell?.seconds,
            reportsCross: !noCross, maxAccuracy: maxAccuracy, initialEnter: !noInitialEnter)
    }

    /// The reorder window in seconds.
    var reorderSeconds: Double { reorderWindow.seconds ?? 5 }

    /// The idle time after which a device is set aside, in seconds.
    var deviceIdleSeconds: Double { deviceIdle.seconds ?? 3600 }

    /// Problems with the values, as sentences for a usage error.
    func problems() -> [String] {
        var found: [String] = []
        if let hysteresis, !(hysteresis >= 0) { found.append("--hysteresis must be 0 or more metres") }
        if confirm < 1 { found.append("--confirm must be at least 1") }
        if exitConfirm < 1 { found.append("--exit-confirm must be at least 1") }
        if !(maxAccuracy > 0) { found.append("--max-accuracy must be a positive number of metres") }
        if let problem = dwell?.fixedLengthProblem(flag: "--dwell") { found.append(problem) }
        if let problem = reorderWindow.fixedLengthProblem(flag: "--reorder-window") { found.append(problem) }
        if let problem = deviceIdle.fixedLengthProblem(flag: "--device-idle") {
            found.append(problem)
        } else if !(deviceIdleSeconds > 0) {
            found.append("--device-idle must be a positive duration, e.g. 1h")
        }
        return found
    }
}
