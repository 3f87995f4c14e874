import ArgumentParser
import Foundation
import GeoCore
import Pipeline
import TaskStore

/// `repeat-sim place import FILE...`: adds the named places of files to the book.
struct PlaceImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract:
            "Add the named places of a GPX, KML, GeoJSON or CSV file, or of Google's location exports, to the place book.",
        discussion: """
            GPX: every <wpt> with a <name>. KML (Google My Maps' "Export to KML", Google
            Earth): every Placemark with a <name>; a Point takes its <Data name="radius">,
            else --radius; a Polygon becomes the circle around it (a KMZ is a zipped KML:
            unzip it first). GeoJSON: every feature with a "name" property (Google
            Takeout's saved places: their location's name); a Point takes its "radius"
            property, else --radius; a Polygon becomes the circle around it. CSV: a header
            naming name, lat and lon (and radius). Google Takeout's Semantic Location
            History (a file a month, like 2013_JUNE.json): every place visited, once, by
            its name or, when Google knew none, its address. Google's on-device Timeline
            export (a phone's Timeline.json): Home and Work, the only places it names,
            where you labelled them or else the place Google took for each that you
            visited most. A place whose name is in the book already moves to the file's
            position. Items without a name or a position are reported and skipped; a file
            with no named place at all is an error.

            Several files (a year of Takeout's months: place import 2013/*.json) are
            read in the order given, and a name in more than one is imported once,
            from the last; it is warned of only where the files put it at places
            farther apart than its radius. Of several files, one without a named
            place is reported and passed over.
            """
    )

    @Argument(help: ArgumentHelp("The files of places (- reads standard input).", valueName: "file"))
    var files: [String]

    @Option(help: ArgumentHelp("Radius in metres of a place the file gives none.", valueName: "metres"))
    var radius: Double = 100

    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard files.count(where: { $0 == "-" }) <= 1 else { throw ValidationError("standard input (-) can be read once") }
        guard radius > 0, radius.isFinite else { throw ValidationError("--radius must be a positive number of metres") }
    }

    func run() async throws {
        try checkReadable(files)
        let sources = files.map { $0 == "-" ? "standard input" : $0 }
        var given: [Given] = []
        for (file, source) in sources.enumerated() {
            let loaded = LoadedPlaces.load([UInt8](try readInput(files[file])), source: source, defaultRadius: radius)
            for diagnostic in loaded.diagnostics { Console.write("\(diagnostic)") }
            guard !loaded.places.isEmpty else {
                let problem =
                    "no named place (GPX <wpt> with a <name>, KML Placemarks with a <name>, GeoJSON features with a \"name\" property, "
                    + "CSV name,lat,lon[,radius], Google Takeout's placeVisits, or a Timeline export's Home and Work)"
                if files.count == 1 { throw InputFileProblem(path: source, problem: problem) }
                Console.warn("\(source): \(problem); passed over")
                continue
            }
            given += loaded.places.map { Given(place: $0, file: file) }
        }
        guard !given.isEmpty else {
            throw ValidationError("none of the \(files.count) files holds a named place")
        }
        let kept = Self.lastOfEachName(given, sources: sources)
        let database = try store.open()
        var added = 0
        var updated = 0
        // Each place is recorded with the file it came from.
        for (file, source) in sources.enumerated() {
            let places = kept.filter { $0.file == file }.map(\.place)
            guard !places.isEmpty else { continue }
            let counted = try database.importPlaces(places, source: source)
            added += counted.added
            updated += counted.updated
        }
        let from = files.count == 1 ? sources[0] : "\(files.count) files"
        print("Imported \(kept.count) place\(kept.count == 1 ? "" : "s") from \(from): \(added) new, \(updated) updated.")
    }

    /// A place as a file gives it: the index of the file among those given.
    struct Given {
        let place: NamedPlace
        let file: Int
    }

    /// One place per name as names are compared (``NamedPlace/key``): the
    /// last given, where the first stood. A name that one file gives more
    /// than once is warned of, and so is one that two files put farther
    /// apart than the kept place's radius; Takeout's months put a place
    /// visited again at the same spot, and are not warned of. `sources`
    /// name the files in the warnings.
    static func lastOfEachName(_ given: [Given], sources: [String]) -> [Given] {
        var position: [String: Int] = [:]
        var kept: [Given] = []
        // Per file and name: how often it is given, and its last spelling.
        var inFile: [String: (times: Int, name: String)] = [:]
        let fileAndName = { (entry: Given) in "\(entry.file) \(entry.place.key)" }
        for entry in given {
            inFile[fileAndName(entry), default: (0, "")].times += 1
            inFile[fileAndName(entry)]!.name = entry.place.name
            guard let index = position[entry.place.key] else {
                position[entry.place.key] = kept.count
                kept.append(entry)
                continue
            }
            let earlier = kept[index]
            let apart = Geodesy.distance(earlier.place.centre, entry.place.centre)
            if earlier.file != entry.file, apart > entry.place.radius {
                let (before, now) = (sources[earlier.file], sources[entry.file])
                Console.warn(
                    "\"\(entry.place.name.terminalSafe)\" is in \(before) and \(now), \(Int(apart.rounded())) m apart; "
                        + "the one in \(now) is kept")
            }
            kept[index] = entry
        }
        for entry in given {
            guard let repeated = inFile.removeValue(forKey: fileAndName(entry)), repeated.times > 1 else { continue }
            Console.warn(
                "\(sources[entry.file]): \"\(repeated.name.terminalSafe)\" is given \(repeated.times) times (names match "
                    + "without case or accents); the last is kept")
        }
        return kept
    }
}
