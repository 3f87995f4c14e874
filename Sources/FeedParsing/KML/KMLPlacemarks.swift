import CLibXML2
import GeoCore

/// A KML placemark (Google My Maps' and Google Earth's export): its name
/// and the shapes that make it a place.
public struct KMLPlacemark: Hashable, Sendable {
    /// A shape of a placemark.
    public enum Geometry: Hashable, Sendable {
        /// A `Point`.
        case point(Coordinate)
        /// A `Polygon`: its outer ring, then its holes, each as written
        /// (KML closes them: the last position repeats the first).
        case polygon([[Coordinate]])
        /// A `LineString` (a line drawn on a map: no times) or a `gx:Track`
        /// (a recording: a `when` for each `gx:coord`, as far as they read).
        case path([PathPoint])
    }

    /// A point of a path, and its time if the path gives one.
    public struct PathPoint: Hashable, Sendable {
        /// Where.
        public var coordinate: Coordinate
        /// When (a `gx:Track`'s `when`), or `nil`.
        public var time: Timestamp?
    }

    /// The `name`, trimmed; `nil` when it has none or only blanks.
    public var name: String?
    /// The line of the `Placemark` element.
    public var line: Int
    /// Its points, polygons and paths, a `MultiGeometry`'s each, in order.
    public var geometries: [Geometry]
    /// The elements it holds that are no place (`LineString`, `Track`…);
    /// the paths among them are in ``geometries`` too.
    public var otherGeometries: [String]
    /// The `coordinates` tuples of its shapes that are not `lon,lat[,alt]`,
    /// as written (a shape missing a position would be another shape).
    public var unreadableCoordinates: [String]
    /// Its `ExtendedData`: each `<Data name="…"><value>` text, trimmed
    /// (`radius`, `task`).
    public var data: [String: String]
}

/// The placemarks of a KML document, read with libxml2 (no network, no
/// DTD), and what could not be read.
public struct KMLPlacemarks: Sendable {
    /// The placemarks, in document order, wherever they are (`Document`,
    /// nested `Folder`s).
    public var placemarks: [KMLPlacemark]
    /// What was wrong with the document, each with its line: libxml2's
    /// errors (it is read in recovery mode, so one error does not lose the
    /// rest).
    public var problems: [(line: Int, message: String)]

    /// Whether `bytes` hold a KML document: its root element is `kml`.
    public static func isKML(_ bytes: [UInt8]) -> Bool {
        XMLRootElement(bytes) == .named("kml")
    }

    /// Reads the placemarks of `bytes`.
    public init(_ bytes: [UInt8]) {
        placemarks = []
        problems = []
        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_RECOVER.rawValue | XML_PARSE_NOERROR.rawValue
                | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue)
        xmlResetLastError()
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    xmlReadMemory($0, Int32(clamping: buffer.count), "places.kml", nil, options)
                }
            }
        }
        if let error = xmlGetLastError(), let message = error.pointee.message {
            problems.append((Int(error.pointee.line), "not well-formed XML: " + String(cString: message).trimmed))
        }
        guard let document else { return }
        defer { xmlFreeDoc(document) }
        visit(xmlDocGetRootElement(document))
    }

    /// Collects the placemarks under `node` and its siblings.
    private mutating func visit(_ node: xmlNodePtr?) {
        var node = node
        while let current = node {
            if current.isElement {
                if current.localName == "Placemark" {
                    placemarks.append(placemark(current))
                } else {
                    visit(current.pointee.children)
                }
            }
            node = current.pointee.next
        }
    }

    private func placemark(_ element: xmlNodePtr) -> KMLPlacemark {
        var placemark = KMLPlacemark(
            name: nil, line: Int(xmlGetLineNo(element)), geometries: [], otherGeometries: [], unreadableCoordinates: [], data: [:]
        )
        for child in element.elementChildren {
            switch child.localName {
            case "name":
                let name = child.text.trimmed
                placemark.name = name.isEmpty ? nil : name
            case "ExtendedData":
                for data in child.elementChildren where data.localName == "Data" {
                    guard let key = data.attribute("name") else { continue }
                    placemark.data[key] = data.elementChildren.first { $0.localName == "value" }?.text.trimmed
                }
            default:
                collectGeometry(child, into: &placemark)
            }
        }
        return placemark
    }

    /// Adds the shapes of a geometry element (a `MultiGeometry`'s, each).
    private func collectGeometry(_ element: xmlNodePtr, into placemark: inout KMLPlacemark) {
        switch element.localName {
        case "Point":
            if let text = element.elementChildren.first(where: { $0.localName == "coordinates" })?.text,
                let position = coordinates(text, of: &placemark).first
            {
                placemark.geometries.append(.point(position))
            }
        case "Polygon":
            var rings: [[Coordinate]] = []
            for boundary in element.elementChildren where ["outerBoundaryIs", "innerBoundaryIs"].contains(boundary.localName) {
                for ring in boundary.elementChildren where ring.localName == "LinearRing" {
                    let text = ring.elementChildren.first { $0.localName == "coordinates" }?.text ?? ""
                    let positions = coordinates(text, of: &placemark)
                    if boundary.localName == "outerBoundaryIs" { rings.insert(positions, at: 0) } else { rings.append(positions) }
                }
            }
            placemark.geometries.append(.polygon(rings))
        case "MultiGeometry", "MultiTrack":
            for child in element.elementChildren { collectGeometry(child, into: &placemark) }
        case "LineString":
            placemark.otherGeometries.append(element.localName)
            let text = element.elementChildren.first { $0.localName == "coordinates" }?.text ?? ""
            placemark.geometries.append(
                .path(coordinates(text, of: &placemark).map { KMLPlacemark.PathPoint(coordinate: $0, time: nil) }))
        case "Track":
            placemark.otherGeometries.append(element.localName)
            placemark.geometries.append(.path(track(element, of: &placemark)))
        case "LinearRing", "Model":
            placemark.otherGeometries.append(element.localName)
        default:
            break
        }
    }

    /// The points of a `gx:Track`: each `gx:coord` (`lon lat [alt]`, blank
    /// separated) with the `when` of the same rank, when it reads.
    private func track(_ element: xmlNodePtr, of placemark: inout KMLPlacemark) -> [KMLPlacemark.PathPoint] {
        let children = element.elementChildren
        let times = children.filter { $0.localName == "when" }.map { RFC3339.parse($0.text.trimmed) }
        var points: [KMLPlacemark.PathPoint] = []
        for (rank, coord) in children.filter({ $0.localName == "coord" }).enumerated() {
            let text = coord.text.trimmed
            let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count >= 2, let longitude = Double(parts[0]), let latitude = Double(parts[1]) else {
                placemark.unreadableCoordinates.append(text)
                continue
            }
            let time = rank < times.count ? times[rank] : nil
            points.append(.init(coordinate: Coordinate(latitude: latitude, longitude: longitude), time: time))
        }
        return points
    }

    /// The positions of a `coordinates` text: `lon,lat[,alt]` tuples
    /// between blanks. A tuple that is not is kept as the placemark's
    /// unreadable coordinates.
    private func coordinates(_ text: String, of placemark: inout KMLPlacemark) -> [Coordinate] {
        var positions: [Coordinate] = []
        for tuple in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }) {
            let parts = tuple.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count >= 2, let longitude = Double(parts[0]), let latitude = Double(parts[1]) else {
                placemark.unreadableCoordinates.append(String(tuple))
                continue
            }
            positions.append(Coordinate(latitude: latitude, longitude: longitude))
        }
        return positions
    }
}

extension UnsafeMutablePointer where Pointee == xmlNode {
    fileprivate var isElement: Bool { pointee.type == XML_ELEMENT_NODE }

    /// The element's name without its namespace prefix.
    fileprivate var localName: String { pointee.name.map { String(cString: $0) } ?? "" }

    fileprivate var elementChildren: [xmlNodePtr] {
        var children: [xmlNodePtr] = []
        var node = pointee.children
        while let current = node {
            if current.isElement { children.append(current) }
            node = current.pointee.next
        }
        return children
    }

    /// The text of the element's text and CDATA children, joined.
    fileprivate var text: String {
        var text = ""
        var node = pointee.children
        while let current = node {
            if current.pointee.type == XML_TEXT_NODE || current.pointee.type == XML_CDATA_SECTION_NODE,
                let content = current.pointee.content
            {
                text += String(cString: content)
            }
            node = current.pointee.next
        }
        return text
    }

    /// The value of the attribute `name`, from its text children.
    fileprivate func attribute(_ name: String) -> String? {
        var attribute = pointee.properties
        while let current = attribute {
            if let attributeName = current.pointee.name, String(cString: attributeName) == name {
                var value = ""
                var node = current.pointee.children
                while let text = node {
                    if let content = text.pointee.content { value += String(cString: content) }
                    node = text.pointee.next
                }
                return value
            }
            attribute = current.pointee.next
        }
        return nil
    }
}

extension String {
    fileprivate var trimmed: String {
        var scalars = Substring(self)
        while scalars.first?.isWhitespace == true { scalars.removeFirst() }
        while scalars.last?.isWhitespace == true { scalars.removeLast() }
        return String(scalars)
    }
}
