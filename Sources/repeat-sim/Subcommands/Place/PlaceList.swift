import ArgumentParser
import Foundation
import GeoCore
import Pipeline
import TaskStore

/// `repeat-sim place list`: the place book, by name or by distance.
struct PlaceList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the place book, or the places nearest a position."
    )

    // Taken whatever it starts with: a latitude south of the equator begins with a "-".
    @Option(parsing: .unconditional, help: ArgumentHelp("List by distance from LAT,LON, nearest first.", valueName: "lat,lon"))
    var near: String?

    @Flag(help: "One JSON object a line: name, lat, lon, radius_m (and distance_m with --near).")
    var json = false

    @OptionGroup var store: StoreOptions

    func validate() throws {
        if let near { _ = try ArgumentParsers.place(near) }
    }

    func run() async throws {
        var rows = try store.openForReading().places().map { (place: $0, distance: Double?.none) }
        if let near {
            let position = try ArgumentParsers.place(near)
            let origin = Coordinate(latitude: position.latitude, longitude: position.longitude)
            rows = rows.map { ($0.place, Geodesy.distance(origin, $0.place.centre)) }.sorted { $0.distance! < $1.distance! }
        }
        if rows.isEmpty, !json {
            print("The place book is empty: `repeat-sim place import FILE` adds places.")
            return
        }
        // The name column fits the longest name shown (24 at least).
        let nameWidth = rows.map { $0.place.name.terminalSafe.count }.reduce(24, max)
        for row in rows {
            let place = row.place
            if json {
                var line = JSONLine()
                line.add("name", place.name)
                line.add("lat", place.centre.latitude)
                line.add("lon", place.centre.longitude)
                line.add("radius_m", place.radius)
                if let distance = row.distance { line.add("distance_m", (distance * 10).rounded() / 10) }
                print(line.string)
            } else {
                let distance = row.distance.map { String(format: "%10.0f m", $0) } ?? ""
                print(
                    place.name.terminalSafe.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                        + String(format: " %11.6f %12.6f  r=", place.centre.latitude, place.centre.longitude)
                        + RadiusText.metres(place.radius) + " m"
                        + distance)
            }
        }
    }
}
