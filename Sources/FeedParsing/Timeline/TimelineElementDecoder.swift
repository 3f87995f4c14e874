import GeoCore

/// Turns the framed elements of a Timeline export into fixes and
/// diagnostics: each semantic segment's positions (a path's points, a
/// visit's place at its start and end, an activity's two ends) and each
/// raw signal's position, all held by ``TimelineFixOrder`` until the end.
struct TimelineElementDecoder {
    var batch = FeedBatch()
    private(set) var statistics = FeedStatistics()
    private(set) var sawNoJSON = false
    private var order = TimelineFixOrder()

    /// The framer's arrays: which each element belongs to.
    static let arrays = ["semanticSegments", "rawSignals"]

    /// Ends the file: hands on every fix, oldest first.
    mutating func finish() {
        let repeats = order.finish(into: &batch.fixes)
        if repeats > 0 { statistics.ignore("repeated position", count: repeats) }
    }

    mutating func handle(_ event: JSONArrayFramer.Event) {
        switch event {
        case .record(let bytes, let array, let index, let location):
            let element = TimelineElement(bytes: bytes, array: Self.name(array), index: index, location: location)
            // iOS's top-level array is one of segments.
            if array == 1 { signal(element) } else { segment(element) }
        case .overlong(let array, let index, let location):
            let name = TimelineElement.name(array: Self.name(array), index: index)
            report(.truncated, at: location, "\(name) is longer than the longest element kept; skipped")
        case .notJSON(let location):
            sawNoJSON = true
            report(
                .badJSON, at: location,
                "not Google's Timeline export here (a JSON object holding \"semanticSegments\" or \"rawSignals\", "
                    + "or an array of segments); the rest of the file is skipped")
        }
    }

    /// An array's name: empty for iOS's top-level array.
    private static func name(_ array: Int?) -> String { array.map { arrays[$0] } ?? "" }

    // MARK: Semantic segments

    private mutating func segment(_ element: TimelineElement) {
        var members = TimelineSegmentMembers()
        guard scan(element, as: "segment", into: &members) else { return }
        let gives = [members.timelinePath, members.visit, members.activity].contains { $0 != nil }
        guard gives else { return statistics.ignore(members.isMemory ? "timelineMemory" : "segment without a position") }
        guard let start = time(members.startTime, "startTime", of: element) else { return }
        // A segment without an end is read as ending where it starts.
        let end = members.endTime == nil ? start : time(members.endTime, "endTime", of: element)
        if let path = members.timelinePath { timelinePath(path, startingAt: start, of: element) }
        if let visit = members.visit { self.visit(visit, from: start, to: end, of: element) }
        if let activity = members.activity { self.activity(activity, from: start, to: end, of: element) }
    }

    /// A path's points, each timed by its `time` (Android) or by
    /// `durationMinutesOffsetFromStartTime` after the segment's start (iOS).
    private mutating func timelinePath(
        _ path: UnsafeBufferPointer<UInt8>, startingAt start: Timestamp, of element: TimelineElement
    ) {
        var scanner = JSONObjectScanner(bytes: path, position: 0)
        var index = 0
        let isArray = scanner.scanArray { point in
            defer { index += 1 }
            self.pathPoint(point, index: index, startingAt: start, of: element)
            return true
        }
        if !isArray {
            report(
                .badJSON, at: element.location(of: path),
                "\(element.name).timelinePath is no array of points; the rest of it is skipped")
        }
    }

    private mutating func pathPoint(
        _ bytes: UnsafeBufferPointer<UInt8>, index: Int, startingAt start: Timestamp, of element: TimelineElement
    ) {
        var members = TimelinePathPointMembers()
        var scanner = JSONObjectScanner(bytes: bytes, position: 0)
        // Named and located only when there is something to say.
        func problem(_ code: FeedDiagnostic.Code, _ message: String) {
            report(code, at: element.location(of: bytes), "\(element.name).timelinePath[\(index)]" + message)
        }
        guard bytes.first == 0x7B, scanner.scanObject(into: &members) else {
            return problem(.badJSON, " is no JSON object; skipped")
        }
        guard let point = members.point else { return problem(.missingField, " has no point; skipped") }
        guard let position = TimelinePoint(point) else {
            return problem(.badField, ": point '\(point.text)' is no latitude, longitude; skipped")
        }
        var time: Timestamp
        if let stamp = members.time {
            guard let parsed = stamp.rfc3339 else {
                return problem(.badField, ": time \(stamp.timeProblem); skipped")
            }
            time = parsed
        } else if let offset = members.minutes {
            guard let minutes = Self.minutes(offset) else {
                return problem(
                    .badField, ": durationMinutesOffsetFromStartTime '\(offset.text)' is no count of minutes; skipped")
            }
            time = start.adding(seconds: Double(minutes * 60))
        } else {
            return problem(.missingField, " has no time; skipped")
        }
        order.add(Fix(time: time, coordinate: position.coordinate, elevation: position.altitude))
    }

    /// A visit's place, at the visit's start and at its end: a stay that a
    /// dwell or a confirmation can see (the end moved earlier where the
    /// file puts the person elsewhere before it, ``TimelineFixOrder``).
    private mutating func visit(
        _ visit: UnsafeBufferPointer<UInt8>, from start: Timestamp, to end: Timestamp?, of element: TimelineElement
    ) {
        guard let place = JSONMember.at("topCandidate", "placeLocation", in: visit) else {
            return report(
                .missingField, at: element.location(of: visit),
                "\(element.name): visit has no topCandidate.placeLocation; skipped")
        }
        guard let position = TimelinePoint(place: place) else {
            return report(
                .badField, at: element.location(of: visit),
                "\(element.name): visit's placeLocation is no latitude, longitude; skipped")
        }
        order.add(Fix(time: start, coordinate: position.coordinate, elevation: position.altitude))
        if let end, end > start {
            order.addVisitEnd(Fix(time: end, coordinate: position.coordinate, elevation: position.altitude), start: start)
        }
    }

    /// An activity's start, at its start time, and its end, at its end time.
    /// Google leaves the ends out of some activities.
    private mutating func activity(
        _ activity: UnsafeBufferPointer<UInt8>, from start: Timestamp, to end: Timestamp?, of element: TimelineElement
    ) {
        var gave = false
        let ends: [(key: StaticString, time: Timestamp?)] = [("start", start), ("end", end)]
        for (key, time) in ends {
            // An end left out, `null`, or an object without its `latLng`.
            guard let time, let member = JSONMember.named(key, in: activity), !member.isNull,
                member.nested.map({ JSONMember.named("latLng", in: $0) != nil }) ?? true
            else { continue }
            guard let position = TimelinePoint(place: member) else {
                report(
                    .badField, at: element.location(of: activity),
                    "\(element.name): activity's \(key) is no latitude, longitude; skipped")
                continue
            }
            order.add(Fix(time: time, coordinate: position.coordinate, elevation: position.altitude))
            gave = true
        }
        if !gave { statistics.ignore("activity without a position") }
    }

    // MARK: Raw signals

    private mutating func signal(_ element: TimelineElement) {
        var members = TimelineSignalMembers()
        guard scan(element, as: "signal", into: &members) else { return }
        guard let position = members.position else {
            return statistics.ignore(members.kind ?? "empty signal")
        }
        var fields = TimelinePositionMembers()
        var scanner = JSONObjectScanner(bytes: position, position: 0)
        func problem(_ code: FeedDiagnostic.Code, _ message: String) {
            report(code, at: element.location(of: position), "\(element.name).position" + message)
        }
        guard scanner.scanObject(into: &fields) else { return problem(.badJSON, " is no JSON object; skipped") }
        guard let latLng = fields.latLng else { return problem(.missingField, " has no LatLng; skipped") }
        guard let point = TimelinePoint(latLng) else {
            return problem(.badField, ": LatLng '\(latLng.text)' is no latitude, longitude; skipped")
        }
        guard let stamp = fields.timestamp else { return problem(.missingField, " has no timestamp; skipped") }
        guard let time = stamp.rfc3339 else { return problem(.badField, ": timestamp \(stamp.timeProblem); skipped") }
        if let accuracy = fields.accuracy, accuracy < 0 {
            return problem(.badField, " has a negative accuracyMeters (\(accuracy)); skipped")
        }
        order.add(
            Fix(
                time: time, coordinate: point.coordinate, elevation: fields.altitude ?? point.altitude,
                speed: fields.speed.flatMap { $0 >= 0 ? $0 : nil }, accuracy: fields.accuracy))
    }

    // MARK: Reading values

    /// Scans an element's members; reports and says `false` when it is no
    /// JSON object.
    private mutating func scan<Members: JSONMemberSink>(
        _ element: TimelineElement, as what: String, into members: inout Members
    ) -> Bool {
        guard element.bytes.first == 0x7B else {
            report(.badJSON, at: element.location, "\(element.name) is not a \(what) (a JSON object); skipped")
            return false
        }
        var scanner = JSONObjectScanner(bytes: element.bytes, position: 0)
        guard scanner.scanObject(into: &members) else {
            let error = UnsafeBufferPointer(rebasing: element.bytes[min(scanner.position, element.bytes.count)...])
            report(.badJSON, at: element.location(of: error), "\(element.name) is malformed JSON; skipped")
            return false
        }
        return true
    }

    /// A segment's `startTime` or `endTime`; reported and `nil` when it is
    /// missing or unreadable.
    private mutating func time(_ scalar: JSONScalar?, _ key: String, of element: TimelineElement) -> Timestamp? {
        guard let scalar else {
            report(.missingField, at: element.location, "\(element.name) has no \(key); skipped")
            return nil
        }
        guard let time = scalar.rfc3339 else {
            report(.badField, at: element.location, "\(element.name): \(key) \(scalar.timeProblem); skipped")
            return nil
        }
        return time
    }

    /// A whole number of minutes, written as a string (iOS) or a number;
    /// `nil` for a negative, fractional or overlong one.
    private static func minutes(_ scalar: JSONScalar) -> Int64? {
        scalar.integer.flatMap { (0...1_000_000_000).contains($0) ? $0 : nil }
    }

    private mutating func report(_ code: FeedDiagnostic.Code, at location: FeedLocation, _ message: String) {
        batch.diagnostics.append(FeedDiagnostic(code, at: location, message))
    }
}
