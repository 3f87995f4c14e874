import Evaluation
import GeoCore
import Geofencing

/// The span of delivered fixes whose count explains one missed true
/// event (``MissCause``), and the fence they are counted against.
struct MissWindow: Sendable {
    /// The missed event's place among the true events.
    let truthIndex: Int
    /// Entry or exit.
    let kind: ScoredEvent.Kind
    /// The first and last time counted (nanoseconds, inclusive). Entry:
    /// from the matching window's start to the device's next true exit
    /// there, at most ``EvaluationDetail/reach`` after it. Exit: from the
    /// event to the matching window's end.
    let times: ClosedRange<Int64>
    /// The region as the detector saw it (padding included).
    let fence: Shape
    /// The setting's accuracy gate (`--max-accuracy`).
    let maxAccuracy: Double

    /// The window of `truth[index]`, missed by a detector of `setting`
    /// matched within `window`, at `region` as the truth knows it;
    /// `exits` are the times of the true exits at that place, sorted.
    init(
        truth: [ScoredEvent], index: Int, region: Region, setting: EvaluationSetting, window: MatchWindow,
        exits: [Int64]
    ) {
        let event = truth[index]
        truthIndex = index
        kind = event.kind
        fence = region.padded(by: setting.padding).shape
        maxAccuracy = setting.geofence.maxAccuracy
        switch event.kind {
        case .enter:
            let time = event.time.nanoseconds
            let next = exits.partitionPoint { $0 > time }
            let reach = event.time.adding(clampedSeconds: EvaluationDetail.reach).nanoseconds
            times =
                event.time.adding(clampedSeconds: -window.early)
                .nanoseconds...min(next < exits.count ? exits[next] : reach, reach)
        case .exit:
            times = event.time.nanoseconds...event.time.adding(clampedSeconds: window.late).nanoseconds
        }
    }
}

/// What a missed event's cause counts of the fixes delivered in its
/// ``MissWindow``, taken in any order: an entry's fixes inside the fence
/// (and within the accuracy gate, and the longest row of those in time
/// order), an exit's fixes past the fence.
///
/// An entry keeps 16 bytes per fix within the accuracy gate, for the
/// longest row; the rest is counted.
struct MissTally: Sendable {
    /// The window counted.
    let window: MissWindow
    /// Entry: fixes inside the fence; exit: fixes past it.
    private(set) var insideFixes = 0
    /// Entry: of ``insideFixes``, those within the accuracy gate.
    private(set) var accurateInside = 0
    /// Entry: each fix within the accuracy gate, by its time and then its
    /// place among those delivered, and whether it was inside.
    private var accurate: [Mark] = []

    private struct Mark: Sendable {
        var time: Int64
        /// The fix's place among those delivered, shifted left once, plus
        /// one when it was inside.
        var placeAndInside: Int

        func precedes(_ other: Mark) -> Bool { (time, placeAndInside) < (other.time, other.placeAndInside) }
    }

    /// Nothing counted yet in `window`.
    init(_ window: MissWindow) { self.window = window }

    /// Counts the fix at `coordinate` delivered `position`th, at `time`
    /// (inside the window's times) with `accuracy`.
    mutating func add(_ coordinate: Coordinate, time: Int64, position: Int, accuracy: Double?) {
        switch window.kind {
        case .enter:
            let inside = window.fence.contains(coordinate)
            if inside { insideFixes += 1 }
            // The detector ignores the others: they break no row.
            guard (accuracy ?? 0) <= window.maxAccuracy else { return }
            if inside { accurateInside += 1 }
            accurate.append(Mark(time: time, placeAndInside: position << 1 | (inside ? 1 : 0)))
        case .exit:
            if window.fence.excess(at: coordinate) > 0 { insideFixes += 1 }
        }
    }

    /// Entry: the most fixes within the gate inside in a row, in time order
    /// (of two at the same time, the earlier delivered first).
    var longestAccurateRun: Int {
        var longest = 0, run = 0
        for mark in accurate.sorted(by: { $0.precedes($1) }) {
            run = mark.placeAndInside & 1 == 1 ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }
}

/// One truth device's ``MissWindow``s, for finding those a time falls in.
struct MissWindowSearch: Sendable {
    /// The windows' places in the plan's list, by their start.
    private let places: [Int]
    private let starts: [Int64]
    private let ends: [Int64]
    /// The latest end among the windows up to each.
    private let reached: [Int64]

    /// The search of `windows`' places `places`.
    init(_ places: [Int], of windows: [MissWindow]) {
        self.places = places.sorted { windows[$0].times.lowerBound < windows[$1].times.lowerBound }
        starts = self.places.map { windows[$0].times.lowerBound }
        ends = self.places.map { windows[$0].times.upperBound }
        var latest = Int64.min
        reached = ends.map { end in
            latest = max(latest, end)
            return latest
        }
    }

    /// Calls `body` with the place of each window that holds `time`.
    func forEach(holding time: Int64, _ body: (Int) -> Void) {
        var index = starts.partitionPoint { $0 > time }
        while index > 0, reached[index - 1] >= time {
            index -= 1
            if ends[index] >= time { body(places[index]) }
        }
    }
}
