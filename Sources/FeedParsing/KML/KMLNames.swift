import CLibXML2
import GeoCore

/// The KML element names the feed decoder looks for, interned in the
/// parser's dictionary so that an element is told by one pointer
/// comparison, whatever its prefix (`gx:Track` of KML 2.2's Google
/// extension and `Track` of KML 2.3 alike).
struct KMLNames {
    let placemark, name, point, coordinates, timeStamp, when, track, coord, angles, simpleArrayData, value,
        lineString, polygon: UnsafePointer<xmlChar>?

    init(dictionary: OpaquePointer?) {
        func intern(_ name: StaticString) -> UnsafePointer<xmlChar>? { internedName(name, in: dictionary) }
        placemark = intern("Placemark")
        name = intern("name")
        point = intern("Point")
        coordinates = intern("coordinates")
        timeStamp = intern("TimeStamp")
        when = intern("when")
        track = intern("Track")
        coord = intern("coord")
        angles = intern("angles")
        simpleArrayData = intern("SimpleArrayData")
        value = intern("value")
        lineString = intern("LineString")
        polygon = intern("Polygon")
    }
}

/// What the text being collected is.
enum KMLLeaf {
    case none
    /// A placemark's `<name>`.
    case name
    /// The `<when>` of a placemark's `<TimeStamp>`.
    case placemarkTime
    /// The `<coordinates>` of a placemark's `<Point>`.
    case pointCoordinates
    /// One `<when>` of a track.
    case trackTime
    /// One `<gx:coord>` of a track: longitude, latitude, altitude.
    case trackCoord
    /// One `<gx:angles>` of a track: heading, tilt, roll.
    case trackAngles
    /// One `<gx:value>` of a track's `<gx:SimpleArrayData>`.
    case arrayValue
}

/// The per-point data arrays of a track's `ExtendedData` that are read,
/// by their `name` attribute.
enum KMLTrackArray: Int, CaseIterable {
    /// Speed in metres per second (`speed`).
    case speed
    /// Course over ground in degrees (`course`, `bearing`, `heading`).
    case course
    /// Horizontal accuracy in metres (`accuracy`).
    case accuracy
    /// HDOP (`hdop`).
    case hdop

    /// The array a `SimpleArrayData` `name` stands for, `nil` for one not read (heart rate, cadence…).
    init?(name: String) {
        switch name.lowercased() {
        case "speed": self = .speed
        case "course", "bearing", "heading": self = .course
        case "accuracy": self = .accuracy
        case "hdop": self = .hdop
        default: return nil
        }
    }
}

/// What a KML document held besides tracks, for the word at the end of
/// one without a track.
struct KMLCounts {
    var tracks = 0
    var pointPlacemarks = 0
    var timedPointPlacemarks = 0
    /// `LineString`s.
    var paths = 0
    /// `Polygon`s.
    var areas = 0
}

/// A position read from KML text, with its altitude when it has one.
typealias KMLPosition = (coordinate: Coordinate, elevation: Double?)

/// A track being read: KML gives a track's times, then its positions,
/// then its per-point data, each as a list, paired by their order.
struct KMLTrack {
    /// Where `<gx:Track>` opened.
    var line = 0
    var times: [Timestamp?] = []
    /// Positions, `nil` for one that could not be read (already reported), with their lines.
    var positions: [(coordinate: Coordinate?, elevation: Double?, line: Int)] = []
    var headings: [Double?] = []
    /// The data arrays' values, by ``KMLTrackArray`` raw value.
    var arrays = [[Double?]](repeating: [], count: KMLTrackArray.allCases.count)

    /// The `index`th value of `array`, when there is one.
    func value(_ array: KMLTrackArray, at index: Int) -> Double? {
        let values = arrays[array.rawValue]
        return index < values.count ? values[index] : nil
    }
}

/// The placemark being read, for its `Point`.
struct KMLPointPlacemark {
    var line = 0
    var name: String?
    var time: Timestamp?
    var coordinate: Coordinate?
    var elevation: Double?
    var hasPoint = false
}
