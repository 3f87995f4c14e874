/// Why a true entry or exit was missed (a false negative), from what the
/// detector was given around it: the first of these that applies.
///
/// ```swift
/// var evidence = MissCause.Evidence(kind: .enter, confirm: 2)
/// evidence.insideFixes = 3
/// evidence.accurateInside = 1
/// MissCause(evidence)  // .tooFewFixes: one accurate fix inside, --confirm 2
/// ```
public enum MissCause: String, Hashable, Sendable, CaseIterable {
    /// A detection of the same device, region and kind came, but too
    /// early or too late for the matching window.
    case outsideWindow = "outside-window"
    /// A detection within the window went to another true event of the
    /// same device, region and kind (two true events close together —
    /// often a graze of the fence just before — seen as one).
    case taken = "taken"
    /// Entry: the detector was still inside from before (it never saw
    /// the previous exit), so there was nothing to enter.
    case stillInside = "still-inside"
    /// Exit: the detector never saw the entry, so there was nothing to
    /// leave.
    case entryMissed = "entry-missed"
    /// No fix was delivered inside the region during the visit (entry),
    /// or outside it after the exit within the window (exit): gaps,
    /// dropouts or a long `--interval`.
    case noFix = "no-fix"
    /// Fixes came inside, but every one was less accurate than
    /// `--max-accuracy` allows.
    case inaccurate = "inaccurate"
    /// Fewer accurate inside fixes in a row than `--confirm` asks.
    case tooFewFixes = "too-few-fixes"
    /// Exit: fixes came outside, but none far enough past the fence
    /// (radius + hysteresis + accuracy) for `--exit-confirm` fixes.
    case exitHeldBack = "exit-held-back"
    /// The fixes sufficed, but the region may have been outside the set
    /// the platform monitored (`--monitor-limit`).
    case notMonitored = "monitor-limit"
    /// None of the above.
    case unexplained = "unexplained"

    /// What the detector was given around one missed true event.
    public struct Evidence: Hashable, Sendable {
        /// Entry or exit.
        public var kind: ScoredEvent.Kind
        /// `--confirm`: accurate inside fixes in a row an entry needs.
        public var confirm: Int
        /// Seconds from the true event to the nearest detection of the
        /// same device, region and kind left unmatched; `nil`: none near.
        public var strayDetection: Double?
        /// Whether a detection of the same device, region and kind within
        /// the window was matched to another true event.
        public var detectionTaken = false
        /// Whether the detector thought the device inside just before the
        /// true event (its last event there, before the window, was an entry).
        public var detectorInside = false
        /// Entry: fixes delivered inside the region (as detected, padding
        /// included) during the visit. Exit: fixes delivered outside it in
        /// the window after the exit.
        public var insideFixes = 0
        /// Entry: of ``insideFixes``, those within the accuracy gate.
        public var accurateInside = 0
        /// Entry: the most accurate inside fixes in a row (inaccurate
        /// fixes, which the detector ignores, do not break a row).
        public var longestAccurateRun = 0
        /// Whether the setting limits the regions monitored.
        public var monitorLimited = false

        /// Evidence of a missed event of `kind` under `--confirm confirm`.
        public init(kind: ScoredEvent.Kind, confirm: Int) {
            self.kind = kind
            self.confirm = confirm
        }
    }

    /// The cause `evidence` points to: a detection outside the window
    /// first (the event was seen, only not in time), then one taken by
    /// another true event, then the detector's state, then what the fixes
    /// lacked.
    public init(_ evidence: Evidence) {
        if evidence.strayDetection != nil {
            self = .outsideWindow
            return
        }
        if evidence.detectionTaken {
            self = .taken
            return
        }
        switch evidence.kind {
        case .enter:
            if evidence.detectorInside {
                self = .stillInside
            } else if evidence.insideFixes == 0 {
                self = .noFix
            } else if evidence.accurateInside == 0 {
                self = .inaccurate
            } else if evidence.longestAccurateRun < evidence.confirm {
                self = .tooFewFixes
            } else if evidence.monitorLimited {
                self = .notMonitored
            } else {
                self = .unexplained
            }
        case .exit:
            if !evidence.detectorInside {
                self = .entryMissed
            } else if evidence.insideFixes == 0 {
                self = .noFix
            } else {
                self = .exitHeldBack
            }
        }
    }

    /// A short name for a table.
    public var label: String {
        switch self {
        case .outsideWindow: return "detected, but outside the window (late or early)"
        case .taken: return "its detection went to a true event just before"
        case .stillInside: return "detector still inside from before"
        case .entryMissed: return "its entry was missed (nothing to leave)"
        case .noFix: return "no fix delivered (gap, dropout, interval)"
        case .inaccurate: return "inside fixes ignored as inaccurate"
        case .tooFewFixes: return "fewer inside fixes than --confirm"
        case .exitHeldBack: return "exit held back (hysteresis, exit-confirm)"
        case .notMonitored: return "not monitored (monitor-limit)"
        case .unexplained: return "unexplained"
        }
    }

    /// What the cause means and what to try.
    public var advice: String {
        switch self {
        case .outsideWindow: return "The detector saw it too late or too early to match; widen --window or cut delays."
        case .taken: return "Two true events in one window (often a graze of the fence) were seen as one."
        case .stillInside: return "The previous exit was not detected; less hysteresis or exit-confirm lets it out."
        case .entryMissed: return "Follows a missed entry; fix the entry first."
        case .noFix: return "No fix fell inside during the visit; a shorter interval or pad helps."
        case .inaccurate: return "Every inside fix was worse than --max-accuracy; raise it if the fixes are usable."
        case .tooFewFixes: return "The visit had fewer accurate inside fixes than --confirm asks; lower confirm."
        case .exitHeldBack: return "Fixes outside never got past radius + hysteresis + accuracy; lower hysteresis."
        case .notMonitored: return "Enough fixes, yet no entry: the region was likely not among those monitored."
        case .unexplained: return "Look at the region's timeline and map."
        }
    }
}
