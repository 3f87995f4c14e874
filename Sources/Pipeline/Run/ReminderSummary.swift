import Foundation

/// The stderr summary of a `replay` or `live` run: what was evaluated and
/// decided, what was ignored, and — when a limit is set or the accuracy
/// gate turned arrivals away — what each limit made the person miss.
public struct ReminderSummary {
    /// The platform limits and the accuracy gate in force, for the account
    /// of what they missed.
    public struct Limits: Sendable {
        /// `--monitor-limit`.
        public var monitor: Int?
        /// `--pending-limit`.
        public var pending: Int?
        /// `--max-accuracy` in metres.
        public var maxAccuracy: Double

        /// The limits in force.
        public init(monitor: Int?, pending: Int?, maxAccuracy: Double) {
            self.monitor = monitor
            self.pending = pending
            self.maxAccuracy = maxAccuracy
        }
    }

    /// The command's name, which starts each line.
    public var label: String
    /// The stages' counts.
    public var statistics: ReminderPipeline.Statistics
    /// The limits in force.
    public var limits: Limits
    /// Wall-clock seconds the run took.
    public var elapsedSeconds: Double

    /// A summary of a run.
    public init(label: String, statistics: ReminderPipeline.Statistics, limits: Limits, elapsedSeconds: Double) {
        self.label = label
        self.statistics = statistics
        self.limits = limits
        self.elapsedSeconds = elapsedSeconds
    }

    /// One line, and a second one about the limits when they matter.
    public var text: String {
        let s = statistics
        let reminders = s.notifications.values.reduce(0, +)
        var text =
            "\(label): \(s.detector.accepted) fixes evaluated from \(s.devices) device\(s.devices == 1 ? "" : "s"), "
            + "\(s.transitions) transitions, \(reminders) reminders"
            + Self.list(s.notifications.map { ($0.key.rawValue, $0.value) })
        text +=
            ", \(s.suppressions.values.reduce(0, +)) suppressed" + Self.list(s.suppressions.map { ($0.key.rawValue, $0.value) })
        text +=
            "; ignored fixes: \(s.detector.inaccurate) inaccurate, \(s.detector.invalid) invalid, "
            + "\(s.untimed) without time, \(s.late + s.detector.outOfOrder) late"
        text += "; " + ElapsedText.of(elapsedSeconds)
        if elapsedSeconds >= 0.05, s.detector.accepted > 0 {  // a rate of a few fixes says nothing
            text += " (\(RateText.of(Double(s.detector.accepted) / elapsedSeconds)) fixes/s)"
        }
        var missed: [String] = []
        if let limit = limits.monitor {
            missed.append(
                "--monitor-limit \(limit) missed \(missedText(.monitorLimit)) (\(s.monitorRefreshes) refreshes of the monitored set)"
            )
        }
        if let limit = limits.pending {
            missed.append("--pending-limit \(limit) missed \(missedText(.pendingLimit))")
        }
        if limits.monitor != nil || limits.pending != nil || s.suppressions[.accuracy] != nil {
            missed.append("the accuracy gate (--max-accuracy \(Self.metres(limits.maxAccuracy))) missed \(missedText(.accuracy))")
        }
        if !missed.isEmpty { text += "\n\(label): limits: " + missed.joined(separator: "; ") }
        return text
    }

    /// `3 reminders of 2 tasks`, or `nothing`.
    private func missedText(_ kind: SuppressionKind) -> String {
        guard let count = statistics.suppressions[kind], count > 0 else { return "nothing" }
        let tasks = statistics.missedTasks[kind]?.count ?? 0
        return "\(count) reminder\(count == 1 ? "" : "s") of \(tasks) task\(tasks == 1 ? "" : "s")"
    }

    private static func metres(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) m" : "\(value) m"
    }

    /// 1.23M, 456k or 789.
    /// ` (due 2, location 5)`, sorted by name, or nothing when empty.
    private static func list(_ counts: [(String, Int)]) -> String {
        counts.isEmpty ? "" : " (" + counts.sorted { $0.0 < $1.0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ") + ")"
    }
}
