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
            "Add the named places of a GPX, KML, GeoJSON or CSV file, or of Google Takeout's Semantic Location History, to the place book.",
        discussion: """
            GPX: every <wpt> with a <name>. KML (Google My Maps' "Export to KML", Google
            Earth): every Placemark with a <name>; a Point takes its <Data name="radius">,
            else --radius; a Polygon becomes the circle around it (a KMZ is a zipped KML:
            unzip it first). GeoJSON: every feature with a "name" property (Google
            Takeout's saved places: their location's name); a Point takes its "radius"
            property, else --radius; a Polygon becomes the circle around it. CSV: a header
            naming name, lat and lon (and radius). Google Takeout's Semantic Location
            History (a file a month, like 2013_JUNE.json): every place visited, once, by
            its name or, when Google knew none, its address. A place whose name is in the
            book already moves to the file's position. Items without a name or a position
            are reported and skipped; a file with no named place at all is an error.

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
        var imported: [(place: NamedPlace, source: String)] = []
        for file in files {
            let source = file == "-" ? "standard input" : file
            let loaded = LoadedPlaces.load([UInt8](try readInput(file)), source: source, defaultRadius: radius)
            for diagnostic in loaded.diagnostics { Console.write("\(diagnostic)") }
            guard !loaded.places.isEmpty else {
                let problem =
                    "no named place (GPX <wpt> with a <name>, KML Placemarks with a <name>, GeoJSON features with a \"name\" property, "
                    + "CSV name,lat,lon[,radius], or Google Takeout's placeVisits)"
                if files.count == 1 { throw InputFileProblem(path: source, problem: problem) }
                Console.warn("\(source): \(problem); passed over")
                continue
            }
            imported += Self.lastOfEachName(loaded.places, source: source).map { ($0, source) }
        }
        guard !imported.isEmpty else {
            throw ValidationError("none of the \(files.count) files holds a named place")
        }
        let kept = Self.lastAcrossFiles(imported)
        var outcome = PlaceImportCount()
        let database = try store.open()
        for (source, places) in Self.runs(of: kept) {
            let counted = try database.importPlaces(places, source: source)
            outcome.added += counted.added
            outcome.updated += counted.updated
        }
        let from = files.count == 1 ? (files[0] == "-" ? "standard input" : files[0]) : "\(files.count) files"
        print(
            "Imported \(kept.count) place\(kept.count == 1 ? "" : "s") from \(from): \(outcome.added) new, "
                + "\(outcome.updated) updated.")
    }

    /// What an import added and updated, summed over its files.
    private struct PlaceImportCount {
        var added = 0
        var updated = 0
    }

    /// One place per name of several files' places (each file's own
    /// repeats resolved already): the last file's, where the first stood. A
    /// name that two files put farther apart than the kept place's radius is
    /// warned of; Takeout's months put a place visited again at the same spot.
    static func lastAcrossFiles(_ places: [(place: NamedPlace, source: String)]) -> [(place: NamedPlace, source: String)] {
        var position: [String: Int] = [:]
        var kept: [(place: NamedPlace, source: String)] = []
        for entry in places {
            guard let index = position[entry.place.key] else {
                position[entry.place.key] = kept.count
                kept.append(entry)
                continue
            }
            let earlier = kept[index]
            let apart = Geodesy.distance(earlier.place.centre, entry.place.centre)
            if apart > entry.place.radius {
                Console.warn(
                    "\"\(entry.place.name.terminalSafe)\" is in \(earlier.source) and \(entry.source), "
                        + "\(Int(apart.rounded())) m apart; the one in \(entry.source) is kept")
            }
            kept[index] = entry
        }
        return kept
    }

    /// `places` cut into runs of one source, in order, for the book's record of where each came from.
    static func runs(of places: [(place: NamedPlace, source: String)]) -> [(source: String, places: [NamedPlace])] {
        var runs: [(source: String, places: [NamedPlace])] = []
        for entry in places {
            if runs.last?.source == entry.source {
                runs[runs.count - 1].places.append(entry.place)
            } else {
                runs.append((entry.source, [entry.place]))
            }
        }
        return runs
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
