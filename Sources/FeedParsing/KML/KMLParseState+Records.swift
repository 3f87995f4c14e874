import GeoCore

extension KMLParseState {
    /// Reads the text of the element that ended into the record it belongs to.
    mutating func finishLeaf() {
        guard !text.isTooLong else {
            batch.diagnostics.append(
                FeedDiagnostic(
                    .badField, at: FeedLocation(line: line, byteOffset: -1),
                    "<\(elementName)> has \(text.length) bytes of text, more than 64 KiB ('\(Excerpt.of(text.bytes[...]))'); "
                        + "read as empty"))
            keepTrackAligned()
            return
        }
        finishLeaf(text.trimmed)
    }

    private mutating func finishLeaf(_ value: ArraySlice<UInt8>) {
        switch leaf {
        case .none: break
        case .name: placemark.name = value.isEmpty ? nil : String(decoding: value, as: UTF8.self)
        case .placemarkTime: placemark.time = time(value)
        case .trackTime: track.times.append(time(value))
        case .pointCoordinates:
            // A Point's first `lon,lat[,alt]` tuple.
            let tuple = value.prefix { !XMLLeafText.isBlank($0) }
            let position = self.position(tuple, separator: UInt8(ascii: ","), what: "lon,lat[,alt]")
            placemark.coordinate = position?.coordinate
            placemark.elevation = position?.elevation
        case .trackCoord:
            let position = self.position(value, separator: nil, what: "longitude latitude [altitude]")
            track.positions.append((position?.coordinate, position?.elevation, line))
        case .trackAngles:
            // Heading, tilt, roll: the heading is the course.
            track.headings.append(Self.firstThreeNumbers(value, separator: nil).values.0)
        case .arrayValue:
            guard let array else { return }
            let number = Self.number(value)
            if number == nil, !value.isEmpty {
                batch.diagnostics.append(
                    FeedDiagnostic(
                        .badField, at: FeedLocation(line: line, byteOffset: -1),
                        "<gx:value> '\(Excerpt.of(value))' is not a number; the point is kept without it"))
            }
            track.arrays[array.rawValue].append(number)
        }
    }

    /// An empty entry for the leaf that could not be read, so that a
    /// track's lists stay paired by rank.
    private mutating func keepTrackAligned() {
        switch leaf {
        case .trackTime: track.times.append(nil)
        case .trackCoord: track.positions.append((nil, nil, line))
        case .trackAngles: track.headings.append(nil)
        case .arrayValue: if let array { track.arrays[array.rawValue].append(nil) }
        case .none, .name, .placemarkTime, .pointCoordinates: break
        }
    }

    /// The time of a `<when>`, or `nil` with a diagnostic. KML also allows
    /// a bare date, a month or a year, which place no fix on the clock.
    private mutating func time(_ value: ArraySlice<UInt8>) -> Timestamp? {
        if value.isEmpty { return nil }
        if let time = RFC3339.parse(utf8: value) { return time }
        let text = String(decoding: value, as: UTF8.self)
        let what = RFC3339.outsideHeldSpan(text) ?? "not an RFC 3339 date and time"
        batch.diagnostics.append(
            FeedDiagnostic(
                .badField, at: FeedLocation(line: line, byteOffset: -1),
                "<when> '\(Excerpt.of(value))' is \(what); the point is kept without a time"))
        return nil
    }

    /// The position of `lon lat [alt]` (blank separated) or `lon,lat[,alt]`,
    /// or `nil` with a diagnostic.
    private mutating func position(_ value: ArraySlice<UInt8>, separator: UInt8?, what: String) -> KMLPosition? {
        let numbers = Self.firstThreeNumbers(value, separator: separator)
        guard numbers.count >= 2, let longitude = numbers.values.0, let latitude = numbers.values.1 else {
            let element = leaf == .trackCoord ? "gx:coord" : "coordinates"
            batch.diagnostics.append(
                FeedDiagnostic(
                    value.isEmpty ? .missingField : .badField, at: FeedLocation(line: line, byteOffset: -1),
                    value.isEmpty
                        ? "<\(element)> is empty; skipped"
                        : "<\(element)> '\(Excerpt.of(value))' is not \(what); skipped"))
            return nil
        }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        guard coordinate.isValid else {
            batch.diagnostics.append(
                FeedDiagnostic(
                    .badField, at: FeedLocation(line: line, byteOffset: -1),
                    "position \(latitude),\(longitude) (lat,lon) is out of range; skipped"))
            return nil
        }
        return (coordinate, numbers.count > 2 ? numbers.values.2 : nil)
    }

    /// Up to three numbers read from a text, and how many fields it had.
    private typealias ThreeFields = (values: (Double?, Double?, Double?), count: Int)

    /// The first three fields of `value` (split at `separator`, or at runs
    /// of blanks when it is `nil`) read as numbers, and how many fields
    /// there were up to three, without allocating.
    private static func firstThreeNumbers(_ value: ArraySlice<UInt8>, separator: UInt8?) -> ThreeFields {
        value.withUnsafeBufferPointer { bytes in
            var values: (Double?, Double?, Double?) = (nil, nil, nil)
            var count = 0
            var start = 0
            while count < 3, start <= bytes.count {
                if separator == nil {
                    while start < bytes.count, XMLLeafText.isBlank(bytes[start]) { start += 1 }
                    if start == bytes.count { break }
                }
                var end = start
                while end < bytes.count, separator.map({ bytes[end] != $0 }) ?? !XMLLeafText.isBlank(bytes[end]) { end += 1 }
                let number = ASCIIDecimal.double(bytes, start, end).flatMap { $0.isFinite ? $0 : nil }
                switch count {
                case 0: values.0 = number
                case 1: values.1 = number
                default: values.2 = number
                }
                count += 1
                start = end + 1
            }
            return (values, count)
        }
    }

    /// The fixes of the track that ended: the `index`th time, position,
    /// heading and data values together.
    mutating func emitTrack() {
        counts.tracks += 1
        let positions = track.positions
        if track.times.count != positions.count {
            let missing =
                track.times.count < positions.count
                ? "the last \(positions.count - track.times.count) positions are kept without a time"
                : "the last \(track.times.count - positions.count) times are left over"
            batch.diagnostics.append(
                FeedDiagnostic(
                    track.times.count < positions.count ? .missingField : .badField,
                    at: FeedLocation(line: track.line, byteOffset: -1),
                    "<gx:Track> has \(track.times.count) <when> and \(positions.count) <gx:coord>, "
                        + "which KML pairs one to one: \(missing)"))
        }
        batch.fixes.reserveCapacity(batch.fixes.count + positions.count)
        for (index, position) in positions.enumerated() {
            guard let coordinate = position.coordinate else { continue }
            let heading = index < track.headings.count ? track.headings[index] : nil
            batch.fixes.append(
                Fix(
                    time: index < track.times.count ? track.times[index] : nil, coordinate: coordinate,
                    elevation: position.elevation, speed: track.value(.speed, at: index),
                    course: track.value(.course, at: index) ?? heading, hdop: track.value(.hdop, at: index),
                    accuracy: track.value(.accuracy, at: index)))
        }
        track = KMLTrack()
    }

    /// A placemark's Point, as a waypoint when they are collected.
    mutating func endPlacemark() {
        guard placemark.hasPoint else { return }
        counts.pointPlacemarks += 1
        if placemark.time != nil { counts.timedPointPlacemarks += 1 }
        guard let coordinate = placemark.coordinate else { return }
        guard collectsWaypoints else {
            statistics.ignore("Point placemark")
            return
        }
        batch.waypoints.append(
            Waypoint(name: placemark.name, coordinate: coordinate, elevation: placemark.elevation, time: placemark.time))
    }

    /// The element whose text is read, for a message.
    private var elementName: String {
        switch leaf {
        case .none: return ""
        case .name: return "name"
        case .placemarkTime, .trackTime: return "when"
        case .pointCoordinates: return "coordinates"
        case .trackCoord: return "gx:coord"
        case .trackAngles: return "gx:angles"
        case .arrayValue: return "gx:value"
        }
    }

    private static func number(_ bytes: ArraySlice<UInt8>) -> Double? {
        bytes.withUnsafeBufferPointer { buffer in
            ASCIIDecimal.double(buffer, 0, buffer.count).flatMap { $0.isFinite ? $0 : nil }
        }
    }

}
