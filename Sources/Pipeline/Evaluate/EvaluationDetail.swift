import Evaluation
import GeoCore
import Geofencing

/// One setting's evaluation event by event, for the report: every true
/// event found or missed (with its cause) and every false detection
/// (with its cause), where it happened, and the fixes and truth to look
/// things up in (what its ``ReportPlan`` gathered). Scores stay exact:
/// nothing here is simplified.
struct EvaluationDetail {
    /// What became of an event.
    enum Outcome: Hashable {
        /// A true event matched by a detection this many seconds after it.
        case found(latency: Double)
        /// A true event no detection matched.
        case missed(MissCause)
        /// A detection that matched no true event.
        case falseAlarm(FalseAlarmCause)
    }

    /// An event with its outcome.
    struct Event {
        /// The detection (found, false alarm) or the true event (missed).
        var event: ScoredEvent
        /// What became of it.
        var outcome: Outcome
        /// Where: the fix that made a detection, the true position of a miss.
        var coordinate: Coordinate?
    }

    /// The events, true ones in order, then the false detections.
    var events: [Event] = []
    /// The true events.
    var truth: [ScoredEvent]
    /// The fixes delivered to the detector that the places and causes
    /// look up (see ``ReportPlan``).
    var delivered: DeliveredFixes
    /// What the fixes delivered in each miss's window counted, by the
    /// missed event's place among the true events (misses at a region
    /// the evaluation knows).
    var missTallies: [Int: MissTally]
    /// The truth points that the causes and places read (none for
    /// hand-labelled truth).
    var positions: TruthPositions
    /// The regions by id, as the truth knows them.
    var regions: [String: Region]
    /// The setting.
    var setting: EvaluationSetting
    /// The feed's first and last fix time.
    var span: (start: Timestamp, end: Timestamp)
    /// What was gathered near each region drawn, by its id.
    var drawings: [String: Drawing] = [:]

    /// The fixes and truth near a region drawn.
    struct Drawing {
        /// The fixes delivered near it: the strip's counts and the dots.
        var fixes: FixSketch
        /// The truth tracks near it, in pieces.
        var truth: [[Coordinate]]
    }

    /// How far around a true event a detection of the same kind left
    /// unmatched counts as that event seen outside the window (and the
    /// other way round), in seconds.
    static let reach = 3600.0

    /// The region as the detector saw it (padding included).
    func detected(_ region: Region) -> Region { region.padded(by: setting.padding) }

    /// Enter latencies of the found entries, in seconds, sorted.
    var entryLatencies: [Double] {
        events.compactMap { event -> Double? in
            guard event.event.kind == .enter, case .found(let latency) = event.outcome else { return nil }
            return latency
        }.sorted()
    }
}

extension ReportPlan {
    /// The detail the plan was made for, from the fixes and truth points
    /// gathered by its ``gatherers()``: each true event found or missed
    /// (with its cause) and each false detection (with its cause).
    func detail(fixes: FixEvidence, truth: TruthEvidence) -> EvaluationDetail {
        let (delivered, tallies, fixSketches) = fixes.finish()
        let (tracks, truthNear) = truth.finish()
        var detail = EvaluationDetail(
            truth: self.truth, delivered: DeliveredFixes(delivered), missTallies: tallies,
            positions: TruthPositions(tracks), regions: regions, setting: setting, span: span)
        for (index, region) in drawn.enumerated() {
            detail.drawings[region.id] = EvaluationDetail.Drawing(fixes: fixSketches[index], truth: truthNear[index])
        }
        let context = CauseContext(truth: self.truth, detected: detected, matching: matching, window: window)
        var found: [Int: Double] = [:]
        var detectionOf: [Int: Int] = [:]
        for match in matching.matches {
            found[match.truth] = match.latency
            detectionOf[match.truth] = match.detected
        }
        for (index, event) in self.truth.enumerated() {
            if let latency = found[index] {
                let detection = detected[detectionOf[index]!]
                detail.events.append(
                    .init(
                        event: detection, outcome: .found(latency: latency),
                        coordinate: detail.delivered.fix(of: detection.device, at: detection.time)?.coordinate))
            } else {
                detail.events.append(
                    .init(
                        event: event, outcome: .missed(context.missCause(index, detail: detail)),
                        coordinate: detail.positions.position(of: event.device, at: event.time)
                            ?? detail.delivered.fix(of: event.device, at: event.time)?.coordinate))
            }
        }
        for index in matching.unmatchedDetections {
            let event = detected[index]
            detail.events.append(
                .init(
                    event: event, outcome: .falseAlarm(context.falseAlarmCause(index, detail: detail)),
                    coordinate: detail.delivered.fix(of: event.device, at: event.time)?.coordinate))
        }
        return detail
    }
}
