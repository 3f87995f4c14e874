import Evaluation
import Foundation
import GeoCore
import Geofencing
import Reporting

/// The regions of a report: the best setting's events grouped by region,
/// the regions with the most misses and false detections first, each
/// with its true visits, a strip of the fixes delivered near it, and the
/// truth and fixes near it for a small map — bounded whatever the feed's
/// length (a strip of ``bins`` cells, at most ``dotLimit`` dots and
/// about 4 000 truth points a region), as its ``ReportPlan`` gathered them.
struct PlaceDrawing {
    let detail: EvaluationDetail
    var start: Timestamp { detail.span.start }
    var end: Timestamp { detail.span.end }

    /// Cells of a region's fix strip.
    static let bins = 240
    /// At most this many fixes are drawn on a small map.
    static let dotLimit = 400
    /// A fix this accurate or better is drawn dark in the strip.
    static let goodAccuracy = 20.0

    /// The regions with events, the `limit` with the most misses and
    /// false detections first (then the most found), and how many more
    /// there were.
    func places(limit: Int) -> (drawn: [EvaluationReport.Place], leftOut: Int) {
        var byRegion: [String: [EvaluationDetail.Event]] = [:]
        for event in detail.events { byRegion[event.event.region, default: []].append(event) }
        let ranked = Self.ranked(
            detail.events.map { event in
                if case .found = event.outcome { return (event.event.region, true) }
                return (event.event.region, false)
            })
        let drawn = ranked.prefix(limit).compactMap { entry in
            detail.regions[entry.id].map { place($0, events: byRegion[entry.id] ?? []) }
        }
        return (drawn, ranked.count - drawn.count)
    }

    /// The regions of `outcomes` (each event's region, and whether it was
    /// found), those with the most misses and false detections first, then
    /// the most events, then by id.
    static func ranked(_ outcomes: [(region: String, found: Bool)]) -> [(id: String, events: Int, wrong: Int)] {
        var counts: [String: (events: Int, wrong: Int)] = [:]
        for outcome in outcomes {
            counts[outcome.region, default: (0, 0)].events += 1
            if !outcome.found { counts[outcome.region, default: (0, 0)].wrong += 1 }
        }
        return counts.map { (id: $0.key, events: $0.value.events, wrong: $0.value.wrong) }.sorted {
            ($1.wrong, $1.events, $0.id) < ($0.wrong, $0.events, $1.id)
        }
    }

    private func place(_ region: Region, events: [EvaluationDetail.Event]) -> EvaluationReport.Place {
        var counts = (found: 0, missed: 0, false: 0)
        let marks = events.map { event -> EvaluationReport.RegionEvent in
            let outcome: EvaluationReport.Outcome
            switch event.outcome {
            case .found: (outcome, counts.found) = (.found, counts.found + 1)
            case .missed: (outcome, counts.missed) = (.missed, counts.missed + 1)
            case .falseAlarm: (outcome, counts.false) = (.falseAlarm, counts.false + 1)
            }
            return EvaluationReport.RegionEvent(
                time: event.event.time, coordinate: event.coordinate, outcome: outcome, entry: event.event.kind == .enter,
                tooltip: Self.describe(event))
        }
        let drawing = detail.drawings[region.id]
        return EvaluationReport.Place(
            label: region.id,
            detail: "\(counts.missed) missed, \(counts.false) false, \(counts.found) found", shape: Self.shape(region.shape),
            visits: visits(of: region.id), events: marks, strip: drawing.map { strip($0.fixes, region: region.id) } ?? [],
            truth: drawing?.truth ?? [], fixes: drawing?.fixes.dots ?? [])
    }

    /// The true visits to `region`: each true entry to the device's next
    /// true exit there (or the end); an exit without an entry (a track
    /// that starts inside) from the start.
    private func visits(of region: String) -> [Timeline.Span] {
        var open: [String?: Timestamp] = [:]
        var spans: [Timeline.Span] = []
        func span(_ device: String?, _ from: Timestamp, _ to: Timestamp) {
            spans.append(
                .init(
                    start: from, end: to, style: EvaluationStyles.visit,
                    tooltip: "true visit" + Self.device(device) + ": " + Format.second(from) + " to " + Format.second(to)
                        + " (" + Format.duration(to.secondsSince1970 - from.secondsSince1970) + ")"))
        }
        for event in detail.truth.filter({ $0.region == region }).sorted(by: { $0.time < $1.time }) {
            switch event.kind {
            case .enter: open[event.device] = event.time
            case .exit:
                span(event.device, open.removeValue(forKey: event.device) ?? start, event.time)
            }
        }
        // By time, then by device: a dictionary's order changes from run to run.
        let stillOpen = open.sorted {
            ($0.value, $0.key == nil ? 0 : 1, $0.key ?? "") < ($1.value, $1.key == nil ? 0 : 1, $1.key ?? "")
        }
        for (device, from) in stillOpen { span(device, from, end) }
        return spans
    }

    /// The strip: per time bin with fixes near the region, their count
    /// and accuracy (dark: one within 20 m; light: usable; pink: all ignored).
    private func strip(_ sketch: FixSketch, region: String) -> [Timeline.Cell] {
        let first = start.secondsSince1970, width = max(end.secondsSince1970 - first, 1) / Double(Self.bins)
        return sketch.bins.indices.compactMap { bin in
            let cell = sketch.bins[bin]
            guard cell.count > 0 else { return nil }
            // Clamped: in doubles, a bin at either end of the times a timestamp holds may round past it.
            let from = Timestamp(clampingSecondsSince1970: first + Double(bin) * width)
            let to = from.adding(clampedSeconds: width)
            let colour = EvaluationStyles.colour(cell.good > 0 ? .accurate : cell.ignored == cell.count ? .ignored : .rough)
            return Timeline.Cell(
                start: from, end: to, colour: colour,
                tooltip: "\(cell.count) fixes near \(region) from \(Format.minute(from)) UTC, mean accuracy "
                    + Format.metres(cell.accuracy / Double(cell.count))
                    + (cell.ignored > 0 ? ", \(cell.ignored) ignored as inaccurate" : ""))
        }
    }

    /// The region and some room around it: a circle's radius again (at
    /// least 100 m) on every side; 150 m around an area.
    static func vicinity(of region: Region) -> BoundingBox {
        switch region.shape {
        case .circle(let circle): return .around(circle.centre, radius: circle.radius + max(circle.radius, 100))
        case .area(let area):
            let box = area.boundingBox
            let latitudeMargin = 150 / Geodesy.metresPerDegree
            let longitudeMargin = latitudeMargin / max(cos((box.south + box.north) / 2 * .pi / 180), 0.01)
            let south = max(box.south - latitudeMargin, -90)
            let north = min(box.north + latitudeMargin, 90)
            // A box round every longitude (an area around a pole) stays round them all.
            guard box.longitudeWidth + 2 * longitudeMargin < 360 else {
                return BoundingBox(south: south, north: north, west: -180, east: 180)
            }
            return BoundingBox(
                south: south, north: north, west: Geodesy.wrapLongitude(box.west - longitudeMargin),
                east: Geodesy.wrapLongitude(box.east + longitudeMargin))
        }
    }

    static func shape(_ shape: Shape) -> ReportMap.Shape {
        switch shape {
        case .circle(let circle): return .circle(centre: circle.centre, radius: circle.radius)
        case .area(let area): return .polygons(area.polygons)
        }
    }

    static func device(_ device: String?) -> String { device.map { " of " + $0 } ?? "" }

    /// The hover text of an event.
    static func describe(_ event: EvaluationDetail.Event) -> String {
        let kind = event.event.kind == .enter ? "entry" : "exit"
        let when = Format.second(event.event.time) + device(event.event.device)
        switch event.outcome {
        case .found(let latency):
            let delay =
                latency >= 0
                ? Format.number(latency, decimals: 1) + " s late" : Format.number(-latency, decimals: 1) + " s early"
            return "found " + kind + ", " + delay + " — " + when
        case .missed(let cause): return "missed " + kind + ": " + cause.label + " — true " + kind + " " + when
        case .falseAlarm(let cause): return "false " + kind + ": " + cause.label + " — " + when
        }
    }
}
