import ArgumentParser
import Foundation
import Pipeline
import TaskStore

/// `repeat-sim place import FILE`: adds a file's named places to the book.
struct PlaceImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract:
            "Add the named places of a GPX, KML, GeoJSON or CSV file, or of Google Takeout's location history, to the place book.",
        discussion: """
            GPX: every <wpt> with a <name>. KML (Google My Maps' "Export to KML",
            Google Earth): every Placemark with a <name>; a Point takes its
            <Data name="radius">, else --radius; a Polygon becomes the circle around
            it (a KMZ is a zipped KML: unzip it first). GeoJSON: every feature with
            a "name" property (Google Takeout's saved places: their location's
            name); a Point takes its "radius" property, else --radius; a Polygon
            becomes the circle around it. CSV: a header naming name, lat and lon
            (and radius). Google Takeout's location history (each month's file, like
            2013_JUNE.json, in its Semantic Location History folder): every place
            visited, once, by its name or, when Google knew none, its address. A
            place whose name is in the book already moves to the file's position.
            Items without a name or a position are reported and skipped; a file with
            no named place at all is an error.
            """
    )

    @Argument(help: ArgumentHelp("The file of places (- reads standard input).", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("Radius in metres of a place the file gives none.", valueName: "metres"))
    var radius: Double = 100

    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard radius > 0, radius.isFinite else { throw ValidationError("--radius must be a positive number of metres") }
    }

    func run() async throws {
        try checkReadable([file])
        let source = file == "-" ? "standard input" : file
        let loaded = LoadedPlaces.load([UInt8](try readInput(file)), source: source, defaultRadius: radius)
        for diagnostic in loaded.diagnostics { Console.write("\(diagnostic)") }
        guard !loaded.places.isEmpty else {
            throw InputFileProblem(
                path: source,
                problem:
                    "no named place (GPX <wpt> with a <name>, KML Placemarks with a <name>, GeoJSON features with a \"name\" property, "
                    + "CSV name,lat,lon[,radius], or Google Takeout's placeVisits)"
            )
        }
        let places = Self.lastOfEachName(loaded.places, source: source)
        let outcome = try store.open().importPlaces(places, source: source)
        print(
            "Imported \(places.count) place\(places.count == 1 ? "" : "s") from \(source): \(outcome.added) new, "
                + "\(outcome.updated) updated.")
    }

    /// `places` with one place per name as names are compared
    /// (``NamedPlace/key``), the last the file gives, where the first one
    /// stood; each name given more than once is warned of.
    static func lastOfEachName(_ places: [NamedPlace], source: String) -> [NamedPlace] {
        var position: [String: Int] = [:]
        var kept: [NamedPlace] = []
        var counts: [String: Int] = [:]
        for place in places {
            counts[place.key, default: 0] += 1
            if let index = position[place.key] {
                kept[index] = place
            } else {
                position[place.key] = kept.count
                kept.append(place)
            }
        }
        for place in kept where counts[place.key, default: 0] > 1 {
            Console.warn(
                "\(source): \"\(place.name.terminalSafe)\" is given \(counts[place.key]!) times (names match without case "
                    + "or accents); the last is kept")
        }
        return kept
    }
}
