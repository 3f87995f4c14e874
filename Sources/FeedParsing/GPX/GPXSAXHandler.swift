import CLibXML2
import GeoCore

/// The SAX2 callbacks: C function pointers that capture nothing and reach
/// the decoder through the user-data pointer.
enum GPXSAXHandler {
    static func make() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = { userData, localname, _, _, _, _, attributeCount, _, attributes in
            GPXSAXHandler.state(userData).pointee.startElement(
                localname, attributeCount: Int(attributeCount), attributes: attributes)
        }
        handler.endElementNs = { userData, localname, _, _ in
            GPXSAXHandler.state(userData).pointee.endElement(localname)
        }
        handler.characters = { userData, characters, length in
            GPXSAXHandler.state(userData).pointee.characters(characters, Int(length))
        }
        handler.cdataBlock = handler.characters
        handler.serror = { userData, error in
            guard let error else { return }
            GPXSAXHandler.state(userData).pointee.xmlError(error.pointee)
        }
        return handler
    }

    /// The parse state behind the user-data pointer (owned by the decoder,
    /// which outlives its parser).
    @inline(__always)
    static func state(_ userData: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<GPXParseState> {
        userData!.assumingMemoryBound(to: GPXParseState.self)
    }
}

/// What the SAX callbacks read and write while a GPX document is parsed.
struct GPXParseState: XMLParseState {
    static let documentName = "GPX"

    let collectsWaypoints: Bool
    let collectsRoutePoints: Bool
    var names: GPXNames?
    var context: xmlParserCtxtPtr?
    var batch = FeedBatch()
    var statistics = FeedStatistics()
    var depth = 0
    var inPoint = false
    var point = GPXPoint(kind: .track, location: FeedLocation(line: 0, byteOffset: -1))
    var pointDepth = 0
    var extensionsDepth = 0
    var leaf = GPXLeaf.none
    /// The depth of the `<metadata>` element being skipped; 0 outside one.
    var metadataDepth = 0
    /// The depth of the element whose text ``leaf`` collects.
    var leafDepth = 0
    /// The text of the leaf, capped as the other formats' line limit: a
    /// 200 MB `<ele>` costs 64 KiB, not its size.
    var text = XMLLeafText()
    var reportedErrors = 0

    init(collectsWaypoints: Bool, collectsRoutePoints: Bool = false) {
        self.collectsWaypoints = collectsWaypoints
        self.collectsRoutePoints = collectsRoutePoints
    }

    /// The parser's current line, for diagnostics.
    var currentLocation: FeedLocation {
        guard let context, let input = context.pointee.input else { return FeedLocation(line: 0, byteOffset: -1) }
        return FeedLocation(line: Int(input.pointee.line), byteOffset: -1)
    }

    static func saxHandler() -> xmlSAXHandler { GPXSAXHandler.make() }

    mutating func begin(_ context: xmlParserCtxtPtr) {
        names = GPXNames(dictionary: context.pointee.dict)
        self.context = context
    }

    mutating func startElement(
        _ localname: UnsafePointer<xmlChar>?, attributeCount: Int,
        attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        depth += 1
        guard let names else { return }
        // Nothing inside <metadata> is a point: a <trk> there is not a track.
        if metadataDepth != 0 { return }
        if localname == names.metadata, !inPoint {
            metadataDepth = depth
            return
        }
        if extensionsDepth != 0 {
            // Speed and course at any depth of a point's extensions, with any
            // prefix (Garmin's `gpxtpx:TrackPointExtension`, OsmAnd); nothing else.
            guard inPoint, leaf == .none else { return }
            switch localname {
            case names.speed: leaf = .speed
            case names.course: leaf = .course
            default: return
            }
            leafDepth = depth
            text.reset()
            return
        }
        if localname == names.extensions {
            extensionsDepth = depth
            return
        }
        if inPoint {
            guard depth == pointDepth + 1 else { return }
            switch localname {
            case names.ele: leaf = .elevation
            case names.time: leaf = .time
            case names.hdop: leaf = .hdop
            case names.speed: leaf = .speed
            case names.course: leaf = .course
            case names.name: leaf = .name
            default: return
            }
            leafDepth = depth
            text.reset()
            return
        }
        let kind: GPXPointKind
        switch localname {
        case names.trkpt: kind = .track
        case names.wpt: kind = .waypoint
        case names.rtept: kind = .route
        default: return
        }
        pointDepth = depth
        inPoint = true
        point = GPXPoint(kind: kind, location: currentLocation)
        if kind != .route || collectsRoutePoints {
            readPosition(attributeCount: attributeCount, attributes: attributes)
        }
    }

    mutating func endElement(_ localname: UnsafePointer<xmlChar>?) {
        defer { depth -= 1 }
        if metadataDepth != 0 {
            if depth == metadataDepth { metadataDepth = 0 }
        } else if leaf != .none, depth == leafDepth {
            finishLeaf()
            leaf = .none
        } else if extensionsDepth != 0 {
            if depth == extensionsDepth { extensionsDepth = 0 }
        } else if inPoint, depth == pointDepth {
            inPoint = false
            emitPoint(point)
        }
    }

    mutating func characters(_ characters: UnsafePointer<xmlChar>?, _ length: Int) {
        guard leaf != .none, let characters else { return }
        text.append(characters, count: length)
    }

    /// Reads `lat` and `lon` from the attributes (five pointers each:
    /// localname, prefix, URI, value start, value end — not NUL-terminated).
    private mutating func readPosition(
        attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard let attributes else {
            point.positionProblem = "has no lat/lon attributes"
            return
        }
        for k in 0..<attributeCount {
            guard let name = attributes[5 * k], let start = attributes[5 * k + 3], let end = attributes[5 * k + 4] else {
                continue
            }
            let isLatitude = name[0] == 0x6C && name[1] == 0x61 && name[2] == 0x74 && name[3] == 0
            let isLongitude = name[0] == 0x6C && name[1] == 0x6F && name[2] == 0x6E && name[3] == 0
            guard isLatitude || isLongitude else { continue }
            let value = UnsafeBufferPointer(start: start, count: end - start)
            guard let number = ASCIIDecimal.double(value, 0, value.count) else {
                point.positionProblem =
                    "\(isLatitude ? "lat" : "lon")=\"\(String(decoding: value, as: UTF8.self))\" is not a decimal number"
                continue
            }
            if isLatitude { point.latitude = number } else { point.longitude = number }
        }
    }

    private mutating func finishLeaf() {
        // Only a diagnostic needs the name: String(describing:) allocates.
        var field: String { leaf == .elevation ? "ele" : String(describing: leaf) }
        guard !text.isTooLong else {
            batch.diagnostics.append(
                FeedDiagnostic(
                    .badField, at: currentLocation,
                    "<\(field)> has \(text.length) bytes of text, more than 64 KiB ('\(Excerpt.of(text.bytes[...]))'); "
                        + "the point is kept without it"))
            return
        }
        let (s, e) = text.trimmedBounds
        guard s < e else { return }
        if leaf == .name {
            point.name = String(decoding: text.bytes[s..<e], as: UTF8.self)
            return
        }
        let parsed: Bool = text.bytes.withUnsafeBufferPointer { buffer in
            if leaf == .time {
                guard let time = RFC3339.parse(utf8: UnsafeBufferPointer(rebasing: buffer[s..<e])) else { return false }
                point.time = time
                return true
            }
            guard let value = ASCIIDecimal.double(buffer, s, e), value.isFinite else { return false }
            switch leaf {
            case .elevation: point.elevation = value
            case .hdop: point.hdop = value
            case .speed: point.speed = value
            case .course: point.course = value
            default: break
            }
            return true
        }
        if !parsed {
            let what =
                leaf == .time
                ? RFC3339.outsideHeldSpan(String(decoding: text.bytes[s..<e], as: UTF8.self)) ?? "not an RFC 3339 time"
                : "not a number"
            batch.diagnostics.append(
                FeedDiagnostic(
                    .badField, at: currentLocation,
                    "<\(field)> '\(Excerpt.of(text.bytes[s..<e]))' is \(what); the point is kept without it"))
        }
    }

    private mutating func emitPoint(_ point: GPXPoint) {
        switch point.kind {
        case .route where !collectsRoutePoints:
            statistics.ignore("rtept")
            return
        case .waypoint where !collectsWaypoints:
            statistics.ignore("wpt")
            return
        default:
            break
        }
        let element = point.kind == .track ? "trkpt" : point.kind == .route ? "rtept" : "wpt"
        guard let latitude = point.latitude, let longitude = point.longitude else {
            let problem = point.positionProblem ?? "lacks \(point.latitude == nil ? "lat" : "lon")"
            batch.diagnostics.append(
                FeedDiagnostic(
                    point.positionProblem == nil ? .missingField : .badField, at: point.location,
                    "<\(element)> \(problem); skipped"))
            return
        }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        guard coordinate.isValid else {
            batch.diagnostics.append(
                FeedDiagnostic(
                    .badField, at: point.location, "<\(element)> position \(latitude),\(longitude) is out of range; skipped"))
            return
        }
        if point.kind != .track {
            let waypoint = Waypoint(name: point.name, coordinate: coordinate, elevation: point.elevation, time: point.time)
            if point.kind == .route { batch.routePoints.append(waypoint) } else { batch.waypoints.append(waypoint) }
            return
        }
        batch.fixes.append(
            Fix(
                time: point.time, coordinate: coordinate, elevation: point.elevation, speed: point.speed, course: point.course,
                hdop: point.hdop))
    }
}
