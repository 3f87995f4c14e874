import Foundation
import GeoCore
import Geofencing

/// `--geojson FILE`: the replay as a GeoJSON FeatureCollection for QGIS or
/// geojson.io — the regions (circles as 64-gon polygons), each device's
/// track as a LineString, and every reminder and transition as a Point at
/// the position of the fix that produced it (due reminders: the last fix).
///
/// Points are written as they happen; tracks, which need all their
/// coordinates, are written at the end (16 bytes a fix while replaying).
public final class GeoJSONSink: RunSink {
    private let handle: FileHandle
    private var first = true
    private var tracks: [String: [Coordinate]] = [:]
    private var trackOrder: [String] = []
    private var lastPosition: Coordinate?
    private let explain: Bool

    /// Creates `path` and writes the regions; suppressions become points
    /// only with `explain` (as on stdout).
    /// - Throws: ``RunError/cannotCreate(_:reason:)``.
    public init(path: String, regions: RegionTable, explain: Bool) throws {
        self.explain = explain
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw RunError.creating(path) }
        self.handle = handle
        handle.write(Data("{\"type\":\"FeatureCollection\",\"features\":[\n".utf8))
        for region in regions { write(Self.feature(region)) }
    }

    public func receive(_ event: ReminderPipeline.Event) {
        switch event {
        case .fix(let fix):
            lastPosition = fix.coordinate
            let device = fix.device ?? ""
            if tracks[device] == nil { trackOrder.append(device) }
            tracks[device, default: []].append(fix.coordinate)
        case .transition(let transition):
            point(properties: ReminderLines.jsonText(transition), colour: "#888888")
        case .reminder(.notify(let notification)):
            point(properties: ReminderLines.jsonText(notification), colour: notification.kind == .due ? "#d62728" : "#2ca02c")
        case .reminder(.suppress(let suppression)) where explain:
            point(properties: ReminderLines.jsonText(suppression), colour: "#ff7f0e")
        case .reminder(.suppress), .untimed, .late:
            break
        }
    }

    /// Writes a point with `properties` (a JSON object's text) at the last
    /// fix's position.
    private func point(properties: String, colour: String) {
        guard let position = lastPosition else { return }
        var properties = properties
        properties.removeLast()
        properties += ",\"marker-color\":\"\(colour)\"}"
        write(
            "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":\(Self.pair(position))},\"properties\":\(properties)}"
        )
    }

    /// Writes the tracks and closes the collection.
    public func finish() {
        for device in trackOrder {
            guard let coordinates = tracks[device], coordinates.count >= 2 else { continue }
            let line = coordinates.map(Self.pair).joined(separator: ",")
            var properties = JSONLine()
            properties.add("kind", "track")
            if !device.isEmpty { properties.add("device", device) }
            properties.add("fixes", coordinates.count)
            write(
                "{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[\(line)]},\"properties\":\(properties.string)}"
            )
        }
        handle.write(Data("\n]}\n".utf8))
        try? handle.close()
    }

    private func write(_ feature: String) {
        handle.write(Data(((first ? "" : ",\n") + feature).utf8))
        first = false
    }

    private static func feature(_ region: Region) -> String {
        var properties = JSONLine()
        properties.add("kind", "region")
        properties.add("region", region.id)
        if let task = region.task { properties.add("task", task) }
        let rings: [[[Coordinate]]]
        switch region.shape {
        case .circle(let circle):
            properties.add("radius_m", circle.radius)
            let ring = (0...64).map { step in
                Geodesy.destination(from: circle.centre, bearing: Double(step % 64) * 360 / 64, metres: circle.radius)
            }
            rings = [[ring]]
        case .area(let area):
            rings = area.polygons
        }
        let polygons = rings.map { polygon in
            "[" + polygon.map { "[" + $0.map(pair).joined(separator: ",") + "]" }.joined(separator: ",") + "]"
        }
        return
            "{\"type\":\"Feature\",\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":[\(polygons.joined(separator: ","))]},"
            + "\"properties\":\(properties.string)}"
    }

    private static func pair(_ coordinate: Coordinate) -> String { "[\(coordinate.longitude),\(coordinate.latitude)]" }
}
