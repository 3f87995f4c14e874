import Evaluation
import GeoCore
import Geofencing

/// Gathers the evidence of each miss and false detection from the events
/// around it at the same device and region, and the fixes the detector
/// was given; ``MissCause`` and ``FalseAlarmCause`` decide.
struct CauseContext {
    /// A device at a region.
    private struct Place: Hashable {
        var device: String?
        var region: String

        init(_ event: ScoredEvent) {
            device = event.device
            region = event.region
        }
    }

    private let truth: [ScoredEvent]
    private let detected: [ScoredEvent]
    private let window: MatchWindow
    private let truthAt: [Place: [Int]]
    private let detectedAt: [Place: [Int]]
    private let unmatchedTruth: Set<Int>
    private let unmatchedDetected: Set<Int>

    /// The context of one matching.
    init(truth: [ScoredEvent], detected: [ScoredEvent], matching: EventMatching, window: MatchWindow) {
        self.truth = truth
        self.detected = detected
        self.window = window
        truthAt = Self.byPlace(truth)
        detectedAt = Self.byPlace(detected)
        unmatchedTruth = Set(matching.missedTruth)
        unmatchedDetected = Set(matching.unmatchedDetections)
    }

    /// Indices of `events` per place, in time order.
    private static func byPlace(_ events: [ScoredEvent]) -> [Place: [Int]] {
        var places: [Place: [Int]] = [:]
        for (index, event) in events.enumerated() { places[Place(event), default: []].append(index) }
        for place in places.keys { places[place]!.sort { (events[$0].time, $0) < (events[$1].time, $1) } }
        return places
    }

    /// Seconds from `event` to the nearest of `candidates` of its kind
    /// within ``EvaluationDetail/reach``.
    private static func nearest(to event: ScoredEvent, among candidates: [Int], in events: [ScoredEvent]) -> Double? {
        candidates.lazy.filter { events[$0].kind == event.kind }
            .map { events[$0].time.secondsSince1970 - event.time.secondsSince1970 }
            .filter { abs($0) <= EvaluationDetail.reach }.min { abs($0) < abs($1) }
    }

    /// Why the true event at `index` was missed.
    func missCause(_ index: Int, detail: EvaluationDetail) -> MissCause {
        let event = truth[index]
        let place = Place(event)
        let geofence = detail.setting.geofence
        var evidence = MissCause.Evidence(kind: event.kind, confirm: geofence.confirm)
        evidence.monitorLimited = detail.setting.monitorLimit != nil
        let detections = detectedAt[place] ?? []
        evidence.strayDetection = Self.nearest(
            to: event, among: detections.filter(unmatchedDetected.contains), in: detected)
        let from = event.time.adding(clampedSeconds: -window.early), to = event.time.adding(clampedSeconds: window.late)
        evidence.detectionTaken = detections.contains {
            !unmatchedDetected.contains($0) && detected[$0].kind == event.kind && detected[$0].time >= from
                && detected[$0].time <= to
        }
        let before = event.kind == .enter ? event.time.adding(clampedSeconds: -window.early) : event.time
        evidence.detectorInside = detections.last { detected[$0].time < before }.map { detected[$0].kind == .enter } ?? false
        guard let tally = detail.missTallies[index] else { return MissCause(evidence) }
        evidence.insideFixes = tally.insideFixes
        if event.kind == .enter {
            evidence.accurateInside = tally.accurateInside
            evidence.longestAccurateRun = tally.longestAccurateRun
        }
        return MissCause(evidence)
    }

    /// Why the detection at `index` matched no true event.
    func falseAlarmCause(_ index: Int, detail: EvaluationDetail) -> FalseAlarmCause {
        let event = detected[index]
        let place = Place(event)
        let region = detail.regions[event.region]
        let band = region.map { detail.setting.geofence.hysteresis(for: detail.detected($0).shape) } ?? 0
        // The band allows for the truth's own error too.
        var evidence = FalseAlarmCause.Evidence(kind: event.kind, edgeBand: band + 10)
        evidence.strayTruth = Self.nearest(to: event, among: (truthAt[place] ?? []).filter(unmatchedTruth.contains), in: truth)
        let detections = detectedAt[place] ?? [index]
        let position = detections.firstIndex(of: index) ?? 0
        if event.kind == .enter, position == 0, let region,
            let start = detail.positions.points(of: event.device).first, region.shape.contains(start.coordinate)
        {
            evidence.initialInside = true
        }
        let partner = event.kind == .enter ? position - 1 : position + 1
        if detections.indices.contains(partner), detected[detections[partner]].kind != event.kind {
            evidence.flapSeconds = abs(detected[detections[partner]].time.secondsSince1970 - event.time.secondsSince1970)
        }
        if let region, let position = detail.positions.position(of: event.device, at: event.time) {
            evidence.truthExcess = region.shape.excess(at: position)
        }
        return FalseAlarmCause(evidence)
    }
}
