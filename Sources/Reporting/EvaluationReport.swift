import GeoCore

/// The report of an evaluation (`evaluate --report FILE.html`): which
/// setting is best and whether it meets the expectations, how the scores
/// move with each swept parameter, how late entries come, and where and
/// why the best setting missed or invented events.
///
/// The caller (the pipeline) computes the facts — scores per setting,
/// the best setting's events with their outcome and cause, the fixes and
/// truth near the regions that matter — and this type lays them out as
/// one self-contained page (``ReportPage``), escaping every text.
public struct EvaluationReport: Sendable {
    /// The best setting and what it scored.
    public struct Verdict: Hashable, Sendable {
        /// The setting in words (`confirm 2, hysteresis 25 m`).
        public var setting: String
        /// Recall, precision and F1 of entries and exits together.
        public var recall: Double?, precision: Double?, f1: Double?
        /// Recall and precision of entries alone.
        public var entryRecall: Double?, entryPrecision: Double?
        /// False entries per 100 device-hours (`nil` without tracks).
        public var falseEntriesPer100h: Double?
        /// Each expectation as written, whether the setting meets it, and
        /// the value it had (`nil`: undefined).
        public var checks: [Check]
        /// Settings that meet every expectation, and settings in all.
        public var meeting: Int, settings: Int

        /// An expectation checked.
        public struct Check: Hashable, Sendable {
            /// As written (`enter.recall>=0.9`).
            public var text: String
            /// Whether it holds.
            public var holds: Bool
            /// The metric's value.
            public var value: Double?

            /// A check.
            public init(text: String, holds: Bool, value: Double?) {
                self.text = text
                self.holds = holds
                self.value = value
            }
        }

        /// A verdict.
        public init(setting: String, checks: [Check], meeting: Int, settings: Int) {
            self.setting = setting
            self.checks = checks
            self.meeting = meeting
            self.settings = settings
        }
    }

    /// The scores against one swept parameter.
    public struct Sweep: Hashable, Sendable {
        /// The parameter (`hysteresis`).
        public var name: String
        /// Its unit for the axis title (`m`, `s`), or empty.
        public var unit: String
        /// One point per setting.
        public var points: [SweepPoint]

        /// A sweep.
        public init(name: String, unit: String, points: [SweepPoint]) {
            self.name = name
            self.unit = unit
            self.points = points
        }
    }

    /// One setting's scores placed on a swept parameter's axis.
    public struct SweepPoint: Hashable, Sendable {
        /// The parameter's value as a number (a word's position otherwise).
        public var x: Double
        /// The value as written on the axis.
        public var label: String
        /// Precision, recall and F1 (entries and exits together).
        public var precision: Double?, recall: Double?, f1: Double?
        /// Whether the other parameters have the best setting's values
        /// (the point is on the lines; else a faint point).
        public var onLine: Bool
        /// The whole setting in words, for the hover text.
        public var setting: String

        /// A point.
        public init(
            x: Double, label: String, precision: Double?, recall: Double?, f1: Double?, onLine: Bool, setting: String
        ) {
            self.x = x
            self.label = label
            self.precision = precision
            self.recall = recall
            self.f1 = f1
            self.onLine = onLine
            self.setting = setting
        }
    }

    /// What became of an event of the best setting.
    public enum Outcome: Hashable, Sendable {
        /// A true event the detector found (TP).
        case found
        /// A detection where no true event was (FP).
        case falseAlarm
        /// A true event the detector missed (FN).
        case missed
    }

    /// An event at a region.
    public struct RegionEvent: Hashable, Sendable {
        /// When (the detection's time; a miss: the true event's).
        public var time: Timestamp
        /// Where, when known.
        public var coordinate: Coordinate?
        /// What became of it.
        public var outcome: Outcome
        /// An entry (else an exit).
        public var entry: Bool
        /// The hover text.
        public var tooltip: String

        /// An event.
        public init(time: Timestamp, coordinate: Coordinate?, outcome: Outcome, entry: Bool, tooltip: String) {
            self.time = time
            self.coordinate = coordinate
            self.outcome = outcome
            self.entry = entry
            self.tooltip = tooltip
        }
    }

    /// A region with the best setting's events there, for its timeline
    /// row and small map.
    public struct Place: Hashable, Sendable {
        /// The region's name.
        public var label: String
        /// A line under it (the counts).
        public var detail: String
        /// The fence.
        public var shape: ReportMap.Shape
        /// True visits, inside from one time to another, with hover texts.
        public var visits: [Timeline.Span]
        /// Found, missed and false events.
        public var events: [RegionEvent]
        /// The fixes near the region over time: density and accuracy.
        public var strip: [Timeline.Cell]
        /// The truth track near the region, in pieces.
        public var truth: [[Coordinate]]
        /// Fixes delivered near the region; `ignored`: less accurate than
        /// the gate allows.
        public var fixes: [Dot]

        /// A region.
        public init(
            label: String, detail: String, shape: ReportMap.Shape, visits: [Timeline.Span], events: [RegionEvent],
            strip: [Timeline.Cell], truth: [[Coordinate]], fixes: [Dot]
        ) {
            self.label = label
            self.detail = detail
            self.shape = shape
            self.visits = visits
            self.events = events
            self.strip = strip
            self.truth = truth
            self.fixes = fixes
        }
    }

    /// How accurate fixes were, as the strip and the maps colour them.
    public enum FixQuality: Hashable, Sendable {
        /// Within 20 m.
        case accurate
        /// Less accurate, but within the accuracy gate.
        case rough
        /// Less accurate than the gate allows: ignored by the detector.
        case ignored
    }

    /// A fix delivered near a region.
    public struct Dot: Hashable, Sendable {
        /// Where.
        public var coordinate: Coordinate
        /// How accurate.
        public var quality: FixQuality

        /// A dot.
        public init(coordinate: Coordinate, quality: FixQuality) {
            self.coordinate = coordinate
            self.quality = quality
        }
    }

    /// A cause of misses or false detections and how often it came.
    public struct Cause: Hashable, Sendable {
        /// What happened.
        public var label: String
        /// What it means, what to try.
        public var advice: String
        /// Entries and exits it explains.
        public var entries: Int, exits: Int

        /// A cause.
        public init(label: String, advice: String, entries: Int, exits: Int) {
            self.label = label
            self.advice = advice
            self.entries = entries
            self.exits = exits
        }
    }

    /// The page's title and the line under it.
    public var title: String, subtitle: String
    /// The verdict.
    public var verdict: Verdict
    /// One chart per swept parameter.
    public var sweeps: [Sweep] = []
    /// The best setting's entry latencies in seconds (found entries).
    public var latencies: [Double] = []
    /// The entries it missed (not on the latency curve).
    public var missedEntries = 0
    /// The matching window: how early and late a detection may be (s).
    public var window: (early: Double, late: Double) = (30, 600)
    /// The regions drawn, those with the most misses first.
    public var places: [Place] = []
    /// The first this many of ``places`` get a small map.
    public var maps = 6
    /// What the timeline left out, in words (`nil`: nothing).
    public var placesLeftOut: String?
    /// Misses and false detections by cause.
    public var misses: [Cause] = [], falseAlarms: [Cause] = []
    /// Every setting's scores, as the text table shows them.
    public var summary: ReportTable
    /// Remarks at the end.
    public var notes: [String] = []
    /// The time span of the timeline.
    public var start: Timestamp, end: Timestamp

    /// A report with its verdict and summary; the rest is set after.
    public init(
        title: String, subtitle: String, verdict: Verdict, summary: ReportTable, start: Timestamp, end: Timestamp
    ) {
        self.title = title
        self.subtitle = subtitle
        self.verdict = verdict
        self.summary = summary
        self.start = start
        self.end = end
    }

    /// The page.
    public var html: String {
        var page = ReportPage(title: title, subtitle: subtitle)
        page.extraStyles = Self.stylesheet
        page.section("Verdict", verdictMarkup)
        if !sweeps.isEmpty {
            page.section(
                "Scores against each swept parameter",
                note: "Precision (of the detections, how many were true), recall (of the true events, how many were "
                    + "found) and F1 (both in one number), entries and exits together. The lines vary one parameter "
                    + "with the others at the best setting's values (shaded); faint dots are the other settings.",
                sweepMarkup)
        }
        page.section(
            "How late entries are detected",
            note: "The share of found entries detected within a given delay of the true entry (best setting). The "
                + "dashed lines are the platforms' documented delays: about 20 s, 2 min and 6 min.", latencyMarkup)
        if !places.isEmpty {
            page.section(
                "Truth against detection, per region",
                note: "Regions with the most misses and false detections first. Blue bars are the true visits; marks "
                    + "are what the detector did; the thin strip under each row shows when fixes were delivered near "
                    + "the region and how accurate they were. Hover for times and causes.", timelineMarkup)
            page.section(
                "Where the misses were",
                note: "The true track (black), the fixes delivered (dots, by accuracy as in the strip above) and the "
                    + "fence, with each missed (hollow), false (orange) and found (green) entry ▲ and exit ▼.",
                mapsMarkup)
        }
        if !misses.isEmpty || !falseAlarms.isEmpty { page.section("Misses and false detections by cause", causesMarkup) }
        var table = Markup()
        table.start("div", ["class": "wide"])
        table.append(summary.markup)
        table.end("div")
        page.section(
            "Every setting",
            note: "As the text table shows them; ★ marks the setting of the verdict. Recall and precision of entries, "
                + "then exits; f1 of both; p50 and p90 of the entry delay.", table)
        if !notes.isEmpty {
            var list = Markup()
            list.start("ul", ["class": "notes"])
            for note in notes { list.element("li", text: note) }
            list.end("ul")
            page.section("Notes", list)
        }
        return page.html
    }

    /// The CSS this report adds to the page's.
    static let stylesheet = """
        .verdict { border: 2px solid #009E73; border-radius: 8px; padding: 10px 16px; background: #f0faf6; }
        .verdict.fails { border-color: #D55E00; background: #fdf3ec; }
        .verdict .headline { font-size: 18px; font-weight: 600; margin: 4px 0; }
        .verdict p { margin: 4px 0; }
        .verdict .met { color: #00704f; font-weight: 600; }
        .verdict .failed { color: #b34700; font-weight: 600; }
        .wide { overflow-x: auto; }
        .wide table { font-size: 13px; }
        .wide th, .wide td { padding: 3px 8px; white-space: nowrap; }
        .charts { display: flex; flex-wrap: wrap; gap: 8px 20px; }
        .charts figure { margin: 0; }
        .charts figcaption { font-weight: 600; margin: 4px 0; }
        .chart .highlight { fill: #F0E442; fill-opacity: 0.35; }
        .chart .reference line { stroke: #555; stroke-dasharray: 4 3; }
        .chart .reference text { font-size: 11px; fill: #555; }

        """
}
