import ArgumentParser
import Foundation
import Pipeline
import TaskStore

/// `repeat-sim place import FILE`: adds a file's named places to the book.
struct PlaceImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the named places of a GPX, GeoJSON or CSV file to the place book.",
        discussion: """
            GPX: every <wpt> with a <name>. GeoJSON: every feature with a "name"
            property; a Point takes its "radius" property, else --radius; a Polygon
            becomes the circle around it. CSV: a header naming name, lat and lon
            (and radius). A place whose name is in the book already moves to the
            file's position. Items without a name or a position are reported and
            skipped; a file with no named place at all is an error.
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
                    "no named place (GPX <wpt> with a <name>, GeoJSON features with a \"name\" property, or CSV name,lat,lon[,radius])"
            )
        }
        let outcome = try store.open().importPlaces(loaded.places, source: source)
        print("Imported \(loaded.places.count) places from \(source): \(outcome.added) new, \(outcome.updated) updated.")
    }
}
