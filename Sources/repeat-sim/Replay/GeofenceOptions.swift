import ArgumentParser
import Geofencing
import Recurrence

/// The geofence flags of `replay` (and `live`): DESIGN.md's settings.
struct GeofenceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Metres beyond the fence (after accuracy) needed to exit. Default: max(10 m, 10 % of the radius).", valueName: "metres"))
    var hysteresis: Double?

    @Option(help: "Consecutive inside fixes needed to enter.")
    var confirm = 1

    @Option(help: "Consecutive clearly-outside fixes needed to exit.")
    var exitConfirm = 1

    @Option(help: ArgumentHelp("Report dwell after staying inside this long (e.g. 5m). Default: off.", valueName: "duration"))
    var dwell: String?

    @Flag(help: "Do not report cross (a segment between two fixes passing through a fence).")
    var noCross = false

    @Option(help: ArgumentHelp("Reorder fixes of each device within this window; older ones are dropped.", valueName: "duration"))
    var reorderWindow = "5s"

    @Option(help: ArgumentHelp("Fixes with a worse horizontal accuracy change nothing (counted).", valueName: "metres"))
    var maxAccuracy = 100.0

    @Flag(help: "A device's first fix inside a region does not count as an entry.")
    var noInitialEnter = false

    /// The detector settings these flags describe.
    func settings() throws -> GeofenceSettings {
        GeofenceSettings(
            hysteresis: hysteresis, confirm: confirm, exitConfirm: exitConfirm,
            dwell: try dwell.map { try Self.seconds($0, flag: "--dwell") }, reportsCross: !noCross,
            maxAccuracy: maxAccuracy, initialEnter: !noInitialEnter)
    }

    /// The reorder window in seconds.
    func reorderSeconds() throws -> Double { try Self.seconds(reorderWindow, flag: "--reorder-window") }

    /// Problems with the values, as sentences for a usage error.
    func problems() -> [String] {
        var found: [String] = []
        if let hysteresis, !(hysteresis >= 0) { found.append("--hysteresis must be 0 or more metres") }
        if confirm < 1 { found.append("--confirm must be at least 1") }
        if exitConfirm < 1 { found.append("--exit-confirm must be at least 1") }
        if !(maxAccuracy > 0) { found.append("--max-accuracy must be a positive number of metres") }
        for (flag, text) in [("--dwell", dwell), ("--reorder-window", reorderWindow)] {
            if let text, (try? Self.seconds(text, flag: flag)) == nil {
                found.append("\(flag) '\(text)' is not a duration like 45s, 30m or 6h")
            }
        }
        return found
    }

    /// Seconds of a duration (`45s`, `30m`, `6h`, `3d`, `2w`; a bare number is seconds).
    static func seconds(_ text: String, flag: String) throws -> Double {
        if let plain = Double(text), plain >= 0 { return plain }
        let duration = try CalendarDuration(parsing: text)
        guard duration.unit.isExact || [.days, .weeks].contains(duration.unit), duration.value >= 0 else {
            throw ValidationError("\(flag) '\(text)' must be a fixed duration (s, m, h, d, w)")
        }
        return duration.approximateSeconds
    }
}
