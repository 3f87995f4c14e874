import CLibXML2
import GeoCore

/// The SAX2 callbacks of the TCX decoder: C function pointers that capture
/// nothing and reach the state through the user-data pointer.
enum TCXSAXHandler {
    static func make() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = { userData, localname, _, _, _, _, _, _, _ in
            TCXSAXHandler.state(userData).pointee.startElement(localname)
        }
        handler.endElementNs = { userData, _, _, _ in
            TCXSAXHandler.state(userData).pointee.endElement()
        }
        handler.characters = { userData, characters, length in
            TCXSAXHandler.state(userData).pointee.characters(characters, Int(length))
        }
        handler.cdataBlock = handler.characters
        handler.serror = { userData, error in
            guard let error else { return }
            TCXSAXHandler.state(userData).pointee.xmlError(error.pointee)
        }
        return handler
    }

    @inline(__always)
    static func state(_ userData: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<TCXParseState> {
        userData!.assumingMemoryBound(to: TCXParseState.self)
    }
}

/// The TCX element names the decoder looks for, interned in the parser's dictionary.
struct TCXNames {
    let trackpoint, time, position, latitude, longitude, altitude, extensions, speed, coursePoint: UnsafePointer<xmlChar>?

    init(dictionary: OpaquePointer?) {
        func intern(_ name: StaticString) -> UnsafePointer<xmlChar>? { internedName(name, in: dictionary) }
        trackpoint = intern("Trackpoint")
        time = intern("Time")
        position = intern("Position")
        latitude = intern("LatitudeDegrees")
        longitude = intern("LongitudeDegrees")
        altitude = intern("AltitudeMeters")
        extensions = intern("Extensions")
        speed = intern("Speed")
        coursePoint = intern("CoursePoint")
    }
}

/// What the SAX callbacks read and write while a TCX document is parsed.
struct TCXParseState: XMLParseState {
    static let documentName = "TCX"

    /// What a track point's child holds.
    enum Leaf {
        case none, time, latitude, longitude, altitude, speed

        var elementName: String {
            switch self {
            case .none: ""
            case .time: "Time"
            case .latitude: "LatitudeDegrees"
            case .longitude: "LongitudeDegrees"
            case .altitude: "AltitudeMeters"
            case .speed: "Speed"
            }
        }
    }

    var names: TCXNames?
    var context: xmlParserCtxtPtr?
    var batch = FeedBatch()
    var statistics = FeedStatistics()
    var reportedErrors = 0

    private var depth = 0
    /// The depths of the open track point, its position and its extensions; 0 outside them.
    private var open = (point: 0, position: 0, extensions: 0)
    private var point = (line: 0, time: Timestamp?.none, latitude: Double?.none, longitude: Double?.none)
    private var fields = (altitude: Double?.none, speed: Double?.none, hasPosition: false, isUnreadable: false)
    private var leaf = Leaf.none
    private var leafDepth = 0
    private var text = XMLLeafText()

    static func saxHandler() -> xmlSAXHandler { TCXSAXHandler.make() }

    mutating func begin(_ context: xmlParserCtxtPtr) {
        names = TCXNames(dictionary: context.pointee.dict)
        self.context = context
    }

    private var line: Int {
        guard let input = context?.pointee.input else { return 0 }
        return Int(input.pointee.line)
    }

    mutating func startElement(_ localname: UnsafePointer<xmlChar>?) {
        depth += 1
        guard let names, leaf == .none else { return }
        guard open.point != 0 else {
            if localname == names.trackpoint {
                open.point = depth
                point = (line, nil, nil, nil)
                fields = (nil, nil, false, false)
            } else if localname == names.coursePoint {
                statistics.ignore("CoursePoint")
            }
            return
        }
        var kind = Leaf.none
        if open.extensions != 0 {
            // Speed at any depth of the extensions (TPX, with any prefix).
            if localname == names.speed { kind = .speed }
        } else if open.position != 0 {
            if localname == names.latitude {
                kind = .latitude
            } else if localname == names.longitude {
                kind = .longitude
            }
        } else if depth == open.point + 1 {
            switch localname {
            case names.time: kind = .time
            case names.altitude: kind = .altitude
            case names.position:
                open.position = depth
                fields.hasPosition = true
            case names.extensions: open.extensions = depth
            default: break
            }
        }
        guard kind != .none else { return }
        leaf = kind
        leafDepth = depth
        text.reset()
    }

    mutating func endElement() {
        defer { depth -= 1 }
        if leaf != .none {
            if depth == leafDepth {
                finishLeaf()
                leaf = .none
            }
            return
        }
        switch depth {
        case open.position: open.position = 0
        case open.extensions: open.extensions = 0
        case open.point:
            open.point = 0
            emitPoint()
        default: break
        }
    }

    mutating func characters(_ characters: UnsafePointer<xmlChar>?, _ length: Int) {
        guard leaf != .none, let characters else { return }
        text.append(characters, count: length)
    }

    private mutating func finishLeaf() {
        let value = text.trimmed
        guard !value.isEmpty else { return }
        if !text.isTooLong, leaf == .time, let time = RFC3339.parse(utf8: value) {
            point.time = time
            return
        }
        let number = value.withUnsafeBufferPointer { ASCIIDecimal.double($0, 0, $0.count).flatMap { $0.isFinite ? $0 : nil } }
        if !text.isTooLong, leaf != .time, let number {
            switch leaf {
            case .latitude: point.latitude = number
            case .longitude: point.longitude = number
            case .altitude: fields.altitude = number
            case .speed: fields.speed = number
            case .none, .time: break
            }
            return
        }
        let what =
            text.isTooLong
            ? "more than 64 KiB of text"
            : leaf != .time
                ? "not a number"
                : RFC3339.outsideHeldSpan(String(decoding: value, as: UTF8.self)) ?? "not an RFC 3339 time"
        let outcome = leaf == .latitude || leaf == .longitude ? "the point is skipped" : "the point is kept without it"
        batch.diagnostics.append(
            FeedDiagnostic(
                .badField, at: FeedLocation(line: line, byteOffset: -1),
                "<\(leaf.elementName)> '\(Excerpt.of(value))' is \(what); \(outcome)"))
        if leaf == .latitude || leaf == .longitude { fields.isUnreadable = true }
    }

    private mutating func emitPoint() {
        // An unreadable latitude or longitude was reported where it was read.
        guard !fields.isUnreadable else { return }
        guard fields.hasPosition else {
            statistics.ignore("Trackpoint without a position")
            return
        }
        guard let latitude = point.latitude, let longitude = point.longitude else {
            let missing = point.latitude == nil ? "LatitudeDegrees" : "LongitudeDegrees"
            batch.diagnostics.append(
                FeedDiagnostic(
                    .missingField, at: FeedLocation(line: point.line, byteOffset: -1),
                    "<Trackpoint> has a <Position> without <\(missing)>; skipped"))
            return
        }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        guard coordinate.isValid else {
            batch.diagnostics.append(
                FeedDiagnostic(
                    .badField, at: FeedLocation(line: point.line, byteOffset: -1),
                    "<Trackpoint> position \(latitude),\(longitude) is out of range; skipped"))
            return
        }
        batch.fixes.append(Fix(time: point.time, coordinate: coordinate, elevation: fields.altitude, speed: fields.speed))
    }

}
