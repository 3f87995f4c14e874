import CLibXML2
import GeoCore

/// The SAX2 callbacks of the KML feed decoder: C function pointers that
/// capture nothing and reach the state through the user-data pointer.
enum KMLSAXHandler {
    static func make() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = { userData, localname, _, _, _, _, attributeCount, _, attributes in
            KMLSAXHandler.state(userData).pointee.startElement(
                localname, attributeCount: Int(attributeCount), attributes: attributes)
        }
        handler.endElementNs = { userData, _, _, _ in
            KMLSAXHandler.state(userData).pointee.endElement()
        }
        handler.characters = { userData, characters, length in
            KMLSAXHandler.state(userData).pointee.characters(characters, Int(length))
        }
        handler.cdataBlock = handler.characters
        handler.serror = { userData, error in
            guard let error else { return }
            KMLSAXHandler.state(userData).pointee.xmlError(error.pointee)
        }
        return handler
    }

    @inline(__always)
    static func state(_ userData: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<KMLParseState> {
        userData!.assumingMemoryBound(to: KMLParseState.self)
    }
}

/// What the SAX callbacks read and write while a KML document is parsed.
struct KMLParseState: XMLParseState {
    static let documentName = "KML"

    let collectsWaypoints: Bool
    var names: KMLNames?
    var context: xmlParserCtxtPtr?
    var batch = FeedBatch()
    var statistics = FeedStatistics()
    var reportedErrors = 0
    /// What was read, for the word at the end on a document without a track.
    var counts = KMLCounts()

    private var depth = 0
    /// The depths of the open elements that matter; 0 outside them.
    private var open = (placemark: 0, timeStamp: 0, point: 0, track: 0, array: 0)
    var placemark = KMLPointPlacemark()
    var track = KMLTrack()
    var array: KMLTrackArray?
    var leaf = KMLLeaf.none
    var leafDepth = 0
    /// The text of the element ``leaf`` reads (a `<coordinates>` of a long
    /// path is never read).
    var text = XMLLeafText()

    init(collectsWaypoints: Bool) {
        self.collectsWaypoints = collectsWaypoints
    }

    static func saxHandler() -> xmlSAXHandler { KMLSAXHandler.make() }

    mutating func begin(_ context: xmlParserCtxtPtr) {
        names = KMLNames(dictionary: context.pointee.dict)
        self.context = context
    }

    /// The parser's current line.
    var line: Int {
        guard let input = context?.pointee.input else { return 0 }
        return Int(input.pointee.line)
    }

    mutating func startElement(
        _ localname: UnsafePointer<xmlChar>?, attributeCount: Int,
        attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        depth += 1
        guard let names, leaf == .none else { return }
        if open.track != 0 {
            if open.array != 0 {
                if localname == names.value, array != nil { collect(.arrayValue) }
            } else if localname == names.when {
                collect(.trackTime)
            } else if localname == names.coord {
                collect(.trackCoord)
            } else if localname == names.angles {
                collect(.trackAngles)
            } else if localname == names.simpleArrayData {
                open.array = depth
                array = Self.attribute("name", attributeCount: attributeCount, attributes: attributes).flatMap(
                    KMLTrackArray.init(name:))
            }
            return
        }
        if localname == names.track {
            open.track = depth
            track = KMLTrack(line: line)
            return
        }
        if open.placemark == 0 {
            if localname == names.placemark {
                open.placemark = depth
                placemark = KMLPointPlacemark(line: line)
            }
            return
        }
        switch localname {
        case names.name where depth == open.placemark + 1: collect(.name)
        case names.timeStamp: open.timeStamp = depth
        case names.when where open.timeStamp != 0: collect(.placemarkTime)
        case names.point:
            open.point = depth
            placemark.hasPoint = true
        case names.coordinates where open.point != 0: collect(.pointCoordinates)
        case names.lineString:
            counts.paths += 1
            statistics.ignore("LineString")
        case names.polygon:
            counts.areas += 1
            statistics.ignore("Polygon")
        default: break
        }
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
        case open.array:
            open.array = 0
            array = nil
        case open.track:
            open.track = 0
            emitTrack()
        case open.timeStamp: open.timeStamp = 0
        case open.point: open.point = 0
        case open.placemark:
            open.placemark = 0
            endPlacemark()
        default: break
        }
    }

    mutating func characters(_ characters: UnsafePointer<xmlChar>?, _ length: Int) {
        guard leaf != .none, let characters else { return }
        text.append(characters, count: length)
    }

    private mutating func collect(_ kind: KMLLeaf) {
        leaf = kind
        leafDepth = depth
        text.reset()
    }

    /// The value of the attribute `name` (no namespace), from libxml2's
    /// five pointers per attribute: local name, prefix, URI, value start, value end.
    private static func attribute(
        _ name: String, attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) -> String? {
        guard let attributes else { return nil }
        for k in 0..<attributeCount {
            guard let local = attributes[5 * k], let start = attributes[5 * k + 3], let end = attributes[5 * k + 4],
                String(cString: local) == name
            else { continue }
            return String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
        }
        return nil
    }
}
