import CLibXML2
import GeoCore

/// The GPX element names the decoder looks for, interned in the parser's
/// dictionary: libxml2 hands SAX callbacks dictionary pointers, so an
/// element is identified by one pointer comparison, whatever its prefix.
struct GPXNames {
    let trkpt, wpt, rtept, ele, time, hdop, speed, course, name, extensions, metadata: UnsafePointer<xmlChar>?

    init(dictionary: OpaquePointer?) {
        func intern(_ name: StaticString) -> UnsafePointer<xmlChar>? { internedName(name, in: dictionary) }
        trkpt = intern("trkpt")
        wpt = intern("wpt")
        rtept = intern("rtept")
        ele = intern("ele")
        time = intern("time")
        hdop = intern("hdop")
        speed = intern("speed")
        course = intern("course")
        name = intern("name")
        extensions = intern("extensions")
        metadata = intern("metadata")
    }
}

/// What a point element's child holds.
enum GPXLeaf {
    case none, elevation, time, hdop, speed, course, name
}

/// The kind of point element being read.
enum GPXPointKind {
    case track, waypoint, route
}

/// The fields of the point element being read.
struct GPXPoint {
    var kind: GPXPointKind
    var location: FeedLocation
    var latitude: Double?
    var longitude: Double?
    var positionProblem: String?
    var elevation: Double?
    var time: Timestamp?
    var hdop: Double?
    var speed: Double?
    var course: Double?
    var name: String?
}
