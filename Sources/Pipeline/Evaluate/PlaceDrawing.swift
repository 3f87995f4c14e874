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
/// about 4 000 truth points a region).
struct PlaceDrawing {
    let detail: EvaluationDetail
    let start: Timestamp, end: Timestamp

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
        func wrong(_ events: [EvaluationDetail.Event]) -> Int {
            events.filter {
                if case .found = $0.outcome { return false }
                return true
            }.count
        }
        let ranked = byRegion.map { (id: $0.key, events: $0.value, wrong: wrong($0.value)) }.sorted {
            ($1.wrong, $1.events.count, $0.id) < ($0.wrong, $0.events.count, $1.id)
        }
        let drawn = ranked.prefix(limit).compactMap { entry in
            detail.regions[entry.id].map { place($0, events: entry.events) }
        }
        return (drawn, ranked.count - drawn.count)
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
        let box = Self.vicinity(of: region)
        let near = nearbyFixes(box)
        return EvaluationReport.Place(
            label: region.id,
            detail: "\(counts.missed) missed, \(counts.false) false, \(counts.found) found", shape: Self.shape(region.shape),
            visits: visits(of: region.id), events: marks, strip: strip(near, region: region.id),
            truth: truth(near: box),
            fixes: Self.sample(near, limit: Self.dotLimit).map { index in
                let fix = detail.delivered.fixes[Int(index)]
                return .init(coordinate: fix.coordinate, quality: quality(fix))
            })
    }

    private func accurate(_ fix: Fix) -> Bool { (fix.effectiveAccuracy ?? 0) <= detail.setting.geofence.maxAccuracy }

    private func quality(_ fix: Fix) -> EvaluationReport.FixQuality {
        !accurate(fix) ? .ignored : (fix.effectiveAccuracy ?? 0) <= Self.goodAccuracy ? .accurate : .rough
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
        for (device, from) in open.sorted(by: { $0.value < $1.value }) { span(device, from, end) }
        return spans
    }

    /// The delivered fixes of every device inside `box`, in feed order.
    private func nearbyFixes(_ box: BoundingBox) -> [Int32] {
        var near: [Int32] = []
        for indices in detail.delivered.byDevice.values {
            for index in indices where box.contains(detail.delivered.fixes[Int(index)].coordinate) { near.append(index) }
        }
        return near.sorted()
    }

    /// The strip: per time bin with fixes near the region, their count
    /// and accuracy (dark: one within 20 m; light: usable; pink: all ignored).
    private func strip(_ near: [Int32], region: String) -> [Timeline.Cell] {
        let first = start.secondsSince1970, width = max(end.secondsSince1970 - first, 1) / Double(Self.bins)
        var bins = Array(repeating: StripBin(), count: Self.bins)
        for index in near {
            let fix = detail.delivered.fixes[Int(index)]
            guard let time = fix.time else { continue }
            let bin = min(max(Int((time.secondsSince1970 - first) / width), 0), Self.bins - 1)
            let accuracy = fix.effectiveAccuracy ?? 0
            bins[bin].count += 1
            bins[bin].accuracy += accuracy
            if !accurate(fix) { bins[bin].ignored += 1 } else if accuracy <= Self.goodAccuracy { bins[bin].good += 1 }
        }
        return bins.indices.compactMap { bin in
            let cell = bins[bin]
            guard cell.count > 0 else { return nil }
            let from = Timestamp(secondsSince1970: first + Double(bin) * width)
            let to = from.adding(seconds: width)
            let colour = EvaluationStyles.colour(cell.good > 0 ? .accurate : cell.ignored == cell.count ? .ignored : .rough)
            return Timeline.Cell(
                start: from, end: to, colour: colour,
                tooltip: "\(cell.count) fixes near \(region) from \(Format.minute(from)) UTC, mean accuracy "
                    + Format.metres(cell.accuracy / Double(cell.count))
                    + (cell.ignored > 0 ? ", \(cell.ignored) ignored as inaccurate" : ""))
        }
    }

    /// The fixes of one cell of a strip.
    private struct StripBin {
        var count = 0, good = 0, ignored = 0
        var accuracy = 0.0
    }

    /// The truth tracks inside `box`, one piece per pass, thinned for drawing.
    private func truth(near box: BoundingBox) -> [[Coordinate]] {
        var collector = TrackCollector(capacity: 4000)
        for device in detail.positions.devices {
            var pass = 0, inside = false
            for point in detail.positions.points(of: device) {
                let now = box.contains(point.coordinate)
                if now, !inside { pass += 1 }
                inside = now
                if now {
                    collector.add(point.coordinate, device: "\(device ?? "")\u{1F}\(pass)", time: point.time.secondsSince1970)
                }
            }
        }
        return collector.result.flatMap(\.segments)
    }

    /// At most `limit` of `indices`, evenly spread.
    static func sample(_ indices: [Int32], limit: Int) -> [Int32] {
        guard indices.count > limit else { return indices }
        return (0..<limit).map { indices[$0 * indices.count / limit] }
    }

    /// The region and some room around it: a circle's radius again (at
    /// least 100 m) on every side; 150 m around an area.
    static func vicinity(of region: Region) -> BoundingBox {
        switch region.shape {
        case .circle(let circle): return .around(circle.centre, radius: circle.radius + max(circle.radius, 100))
        case .area(let area):
            let box = area.boundingBox
            let north = 150 / Geodesy.metresPerDegree
            let east = north / max(cos((box.south + box.north) / 2 * .pi / 180), 0.01)
            return BoundingBox(
                south: max(box.south - north, -90), north: min(box.north + north, 90),
                west: Geodesy.wrapLongitude(box.west - east), east: Geodesy.wrapLongitude(box.east + east))
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
