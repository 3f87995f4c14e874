import GeoCore

// The regions of the best setting: a timeline row and a small map each,
// and the misses and false detections by cause.
extension EvaluationReport {
    var timelineMarkup: Markup {
        var entries: [Legend.Entry] = [EvaluationStyles.visit.legendEntry]
        entries += EvaluationStyles.marks.map(Legend.Entry.mark)
        entries += Self.qualities.map { quality in
            let colour = EvaluationStyles.colour(quality)
            return .area(fill: colour, stroke: colour, label: EvaluationStyles.label(quality) + " near the region")
        }
        var html = Legend(entries).markup
        let rows = places.map { place in
            Timeline.Row(
                label: place.label, detail: place.detail, spans: place.visits,
                marks: place.events.sorted { Self.layer($0) < Self.layer($1) }.map {
                    Timeline.Mark(time: $0.time, style: EvaluationStyles.style($0.outcome, entry: $0.entry), tooltip: $0.tooltip)
                }, strip: place.strip)
        }
        let padding = max((end.secondsSince1970 - start.secondsSince1970) * 0.01, 30)
        html.append(
            Timeline(start: start.adding(clampedSeconds: -padding), end: end.adding(clampedSeconds: padding), rows: rows).svg(
                title: "Truth against detection per region"))
        if let placesLeftOut { html.element("p", ["class": "note"], text: placesLeftOut) }
        return html
    }

    private static let qualities: [FixQuality] = [.accurate, .rough, .ignored]

    /// Drawing order: found under false under missed.
    private static func layer(_ event: RegionEvent) -> Int {
        switch event.outcome {
        case .found: return 0
        case .falseAlarm: return 1
        case .missed: return 2
        }
    }

    var mapsMarkup: Markup {
        var entries: [Legend.Entry] = [
            .line(colour: EvaluationStyles.truthTrack, label: "true track"),
            .area(fill: ReportMap.regionFill, stroke: ReportMap.regionStroke, label: "fence"),
        ]
        entries += Self.qualities.map { .mark(EvaluationStyles.dot($0)) }
        entries += EvaluationStyles.marks.map(Legend.Entry.mark)
        var html = Legend(entries).markup
        html.start("div", ["class": "charts"])
        for place in places.prefix(maps) {
            html.start("figure")
            html.element("figcaption", text: place.label + " — " + place.detail)
            html.append(map(of: place).svg(width: 470, heights: 240...340, title: "Map of " + place.label))
            html.end("figure")
        }
        html.end("div")
        return html
    }

    private func map(of place: Place) -> ReportMap {
        var marks = place.fixes.map { dot in
            ReportMap.Mark(
                coordinate: dot.coordinate, style: EvaluationStyles.dot(dot.quality), tooltip: "")
        }
        marks += place.events.sorted { Self.layer($0) < Self.layer($1) }.compactMap { event in
            event.coordinate.map {
                ReportMap.Mark(
                    coordinate: $0, style: EvaluationStyles.style(event.outcome, entry: event.entry), tooltip: event.tooltip)
            }
        }
        var map = ReportMap(
            tracks: [ReportMap.Track(label: "true track", colour: EvaluationStyles.truthTrack, segments: place.truth)],
            regions: [ReportMap.Region(label: place.label, shape: place.shape, tooltip: place.label)], marks: marks)
        map.maximumLabels = 1
        return map
    }

    var causesMarkup: Markup {
        var html = Markup()
        for (heading, causes) in [("Missed true events", misses), ("False detections", falseAlarms)] where !causes.isEmpty {
            html.element("h3", text: heading)
            html.append(
                ReportTable(
                    columns: ["cause", "entries", "exits", "what it means"],
                    rows: causes.map { [$0.label, String($0.entries), String($0.exits), $0.advice] }
                ).markup)
        }
        return html
    }
}
