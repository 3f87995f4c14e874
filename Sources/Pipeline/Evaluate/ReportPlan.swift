import Evaluation
import GeoCore
import Geofencing

/// What the report's detail of one setting reads of a feed and its truth,
/// known from the events alone: the fixes and truth points its causes,
/// places and maps look up, so that a feed read once more (or kept) is
/// gathered into a ``FixEvidence`` and a ``TruthEvidence`` whose size is
/// set by the events and the regions drawn, not by the feed's length, and
/// the detail is the same as on every fix.
public struct ReportPlan: Sendable {
    /// The setting.
    let setting: EvaluationSetting
    /// The matching window.
    let window: MatchWindow
    /// The true events.
    let truth: [ScoredEvent]
    /// What the setting detected, devices named as in the truth.
    let detected: [ScoredEvent]
    /// The two matched.
    let matching: EventMatching
    /// Which truth device each feed device is scored against.
    let devices: DeviceMatching
    /// The regions by id, as the truth knows them.
    let regions: [String: Region]
    /// The feed's first and last fix time.
    let span: (start: Timestamp, end: Timestamp)
    /// The regions drawn, in the report's order.
    let drawn: [Region]
    /// The truth devices drawn on the maps, by name.
    let drawnDevices: [String?]
    /// The points kept of each device on a map.
    let pointsPerDevice: Int
    /// Per truth device: the times at which the report looks up the fix
    /// delivered last (sorted, each once).
    let fixLookups: [String?: [Int64]]
    /// The spans whose delivered fixes the causes of misses count, one
    /// per miss at a known region.
    let missWindows: [MissWindow]
    /// Per truth device: its ``missWindows``.
    let missWindowSearch: [String?: MissWindowSearch]
    /// Per truth device: the times at which the report looks up the true
    /// position (sorted, each once).
    let positionLookups: [String?: [Int64]]

    /// At most this many truth devices are drawn on a region's map.
    static let deviceLimit = 100
    /// About this many truth points are drawn on a region's map.
    static let pointsPerMap = 4000

    /// The plan of `setting`'s detail: what it `detected` on a feed whose
    /// fixes span `span`, against `truth`, within `window`.
    init(
        evaluation: FeedEvaluation, truth: FeedEvaluation.Truth, detected: [ScoredEvent], setting: EvaluationSetting,
        window: MatchWindow, span: (start: Timestamp, end: Timestamp)
    ) {
        self.setting = setting
        self.window = window
        self.truth = truth.events
        self.detected = detected
        matching = EventMatching(truth: truth.events, detected: detected, window: window)
        devices = truth.devices
        var regionsByID: [String: Region] = [:]
        for region in evaluation.regions where regionsByID[region.id] == nil { regionsByID[region.id] = region }
        regions = regionsByID
        self.span = span

        var foundTruth = Set<Int>()
        var outcomes: [(region: String, found: Bool)] = []
        var fixLookups: [String?: Set<Int64>] = [:]
        var positionLookups: [String?: Set<Int64>] = [:]
        var missWindows: [MissWindow] = []
        var windowsOf: [String?: [Int]] = [:]
        for match in matching.matches {
            foundTruth.insert(match.truth)
            let detection = detected[match.detected]
            outcomes.append((detection.region, true))
            fixLookups[detection.device, default: []].insert(detection.time.nanoseconds)
        }
        let exits = Self.exitTimes(truth.events)
        for (index, event) in truth.events.enumerated() where !foundTruth.contains(index) {
            outcomes.append((event.region, false))
            let time = event.time.nanoseconds
            fixLookups[event.device, default: []].insert(time)
            positionLookups[event.device, default: []].insert(time)
            guard let region = regionsByID[event.region] else { continue }
            windowsOf[event.device, default: []].append(missWindows.count)
            missWindows.append(
                MissWindow(
                    truth: truth.events, index: index, region: region, setting: setting, window: window,
                    exits: exits[ExitPlace(device: event.device, region: event.region)] ?? []))
        }
        for index in matching.unmatchedDetections {
            let event = detected[index]
            outcomes.append((event.region, false))
            fixLookups[event.device, default: []].insert(event.time.nanoseconds)
            positionLookups[event.device, default: []].insert(event.time.nanoseconds)
        }
        self.fixLookups = fixLookups.mapValues { $0.sorted() }
        self.positionLookups = positionLookups.mapValues { $0.sorted() }
        self.missWindows = missWindows
        missWindowSearch = windowsOf.mapValues { MissWindowSearch($0, of: missWindows) }
        drawn = PlaceDrawing.ranked(outcomes).prefix(EvaluationReporter.placeLimit).compactMap { regionsByID[$0.id] }
        let truthDevices = truth.devices.truth.sorted { ($0 ?? "") < ($1 ?? "") }
        drawnDevices = Array(truthDevices.prefix(Self.deviceLimit))
        pointsPerDevice = max(40, Self.pointsPerMap / max(drawnDevices.count, 1))
    }

    /// A device at a region.
    private struct ExitPlace: Hashable {
        var device: String?
        var region: String
    }

    /// The times of the true exits at each place, sorted.
    private static func exitTimes(_ events: [ScoredEvent]) -> [ExitPlace: [Int64]] {
        var exits: [ExitPlace: [Int64]] = [:]
        for event in events where event.kind == .exit {
            exits[ExitPlace(device: event.device, region: event.region), default: []].append(event.time.nanoseconds)
        }
        return exits.mapValues { $0.sorted() }
    }

    /// The vicinity of each drawn region, in the order of ``drawn``.
    var boxes: [BoundingBox] { drawn.map(PlaceDrawing.vicinity(of:)) }

    /// Empty gatherers of the fixes and truth points this plan reads.
    public func gatherers() -> (fixes: FixEvidence, truth: TruthEvidence) {
        (FixEvidence(plan: self), TruthEvidence(plan: self))
    }
}
