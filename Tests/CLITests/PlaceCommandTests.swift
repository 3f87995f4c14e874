import Foundation
import TestSupport
import Testing

/// `repeat-sim place …`, `task add --at-place NAME`, GPX waypoints as
/// `--regions`, and `--places` on `decode` and `replay`.
@Suite("repeat-sim place")
struct PlaceCommandTests {
    static let places = RepositoryPaths.track("cat-medicine/places.gpx")
    static let drives = RepositoryPaths.track("cat-medicine/drives.gpx")
    static let scenario = RepositoryPaths.track("cat-medicine/scenario.json")

    /// A fresh store with the cat-medicine places (150 m).
    static func book(_ label: String) throws -> String {
        let db = temporaryDirectory(label) + "/repeat.sqlite"
        let imported = try RepeatSimBinary.run(["place", "import", places, "--radius", "150", "--db", db])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout == "Imported 3 places from \(places): 3 new, 0 updated.\n")
        return db
    }

    @Test("a KML's placemarks are places and regions: a walk across a park leaves it at its pond")
    func kmlPlacemarks() throws {
        let areas = RepositoryPaths.track("places/berlin-areas.kml")
        let db = temporaryDirectory("repeat-place-kml") + "/repeat.sqlite"
        let imported = try RepeatSimBinary.run(["place", "import", areas, "--db", db])
        #expect(imported.status == 0)
        #expect(imported.stdout == "Imported 3 places from \(areas): 3 new, 0 updated.\n")
        #expect(imported.stderr.contains("\(areas):47: Placemark \"Walk to work\" is a LineString, a path, not a place"))
        let walk = temporaryDirectory("repeat-place-kml") + "/walk.csv"
        try """
        time,lat,lon
        2025-03-01T10:00:00Z,52.5130,13.3450
        2025-03-01T10:01:00Z,52.5130,13.3520
        2025-03-01T10:02:00Z,52.5130,13.3550
        2025-03-01T10:03:00Z,52.5130,13.3580

        """.write(toFile: walk, atomically: true, encoding: .utf8)
        let replay = try RepeatSimBinary.run(["replay", walk, "--regions", areas, "--transitions", "--json"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let kinds = replay.stdout.split(separator: "\n").compactMap { line -> String? in
            guard line.contains(#""region":"Park""#), line.contains(#""kind":"e"#) else { return nil }
            return line.contains(#""kind":"enter""#) ? "enter" : "exit"
        }
        #expect(kinds == ["enter", "exit", "enter"], "\(replay.stdout)")
    }

    @Test("the list's columns fit its longest name")
    func listColumnsFitTheNames() throws {
        let folder = temporaryDirectory("repeat-place-width")
        try "name,lat,lon\nApotheke am Brandenburger Tor,52.5163,13.3777\nHome,52.52,13.40\n".write(
            toFile: folder + "/places.csv", atomically: true, encoding: .utf8)
        #expect(try RepeatSimBinary.run(["place", "import", folder + "/places.csv", "--db", folder + "/db.sqlite"]).status == 0)
        let lines = try RepeatSimBinary.run(["place", "list", "--db", folder + "/db.sqlite"]).stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(Set(lines.map { $0.range(of: "52.5")!.lowerBound.utf16Offset(in: $0) }).count == 1, "\(lines)")
    }

    @Test("import, list by name and by distance, import again updates, rm")
    func importListRemove() throws {
        let db = try Self.book("repeat-place-list")
        let list = try RepeatSimBinary.run(["place", "list", "--db", db])
        #expect(
            list.stdout.split(separator: "\n").map { String($0.prefix(17)) } == [
                "Home             ", "Pharmacy         ", "Veterinary clinic",
            ])
        let near = try RepeatSimBinary.run(["place", "list", "--near", "45.2790,13.7224", "--json", "--db", db])
        #expect(
            near.stdout.split(separator: "\n").first
                == #"{"name":"Pharmacy","lat":45.27884,"lon":13.72245,"radius_m":150.0,"distance_m":18.2}"#)
        // South of the equator, a value that begins with a "-".
        let south = try RepeatSimBinary.run(["place", "list", "--near", "-45.2790,13.7224", "--json", "--db", db])
        #expect(
            south.status == 0
                && south.stdout.contains(
                    #""name":"Pharmacy","lat":45.27884,"lon":13.72245,"radius_m":150.0,"distance_m":10069586.3}"#),
            "\(south.stderr)")
        let csv = temporaryDirectory("repeat-place-csv") + "/moved.csv"
        try "name,lat,lon,radius\npharmacy,45.2790,13.7230,90\nBakery,45.28,13.73,\n".write(
            toFile: csv, atomically: true, encoding: .utf8)
        let again = try RepeatSimBinary.run(["place", "import", csv, "--db", db])
        #expect(again.stdout == "Imported 2 places from \(csv): 1 new, 1 updated.\n")
        let moved = try RepeatSimBinary.run(["place", "list", "--json", "--db", db])
        #expect(moved.stdout.contains(#"{"name":"pharmacy","lat":45.279,"lon":13.723,"radius_m":90.0}"#), "\(moved.stdout)")
        #expect(moved.stdout.contains(#"{"name":"Bakery","lat":45.28,"lon":13.73,"radius_m":100.0}"#), "\(moved.stdout)")
        // A name given twice in one file (without case or accents) is one place, the last, with a warning.
        let twice = temporaryDirectory("repeat-place-csv") + "/twice.csv"
        try "name,lat,lon,radius\nKiosk,45.20,13.70,50\nKIOSK,45.21,13.71,60\n".write(
            toFile: twice, atomically: true, encoding: .utf8)
        let kiosk = try RepeatSimBinary.run(["place", "import", twice, "--db", db])
        #expect(kiosk.stdout == "Imported 1 place from \(twice): 1 new, 0 updated.\n", "\(kiosk.stdout)")
        #expect(
            kiosk.stderr.contains(
                "warning: \(twice): \"KIOSK\" is given 2 times (names match without case or accents); the last is kept"),
            "\(kiosk.stderr)")
        let kept = try RepeatSimBinary.run(["place", "list", "--json", "--db", db]).stdout
        #expect(kept.contains(#"{"name":"KIOSK","lat":45.21,"lon":13.71,"radius_m":60.0}"#), "\(kept)")
        #expect(try RepeatSimBinary.run(["place", "rm", "kiosk", "--db", db]).status == 0)
        // A file's radius of 1e308 m is kept, and listed in three digits rather than three hundred.
        let huge = temporaryDirectory("repeat-place-csv") + "/huge.csv"
        try "name,lat,lon,radius\nEverywhere,45.28,13.73,1e308\n".write(toFile: huge, atomically: true, encoding: .utf8)
        #expect(try RepeatSimBinary.run(["place", "import", huge, "--db", db]).status == 0)
        let listed = try RepeatSimBinary.run(["place", "list", "--db", db]).stdout
        #expect(listed.contains("Everywhere                 45.280000    13.730000  r=1e+308 m\n"), "\(listed)")
        #expect(listed.contains("Home "))
        #expect(try RepeatSimBinary.run(["place", "rm", "Everywhere", "--db", db]).status == 0)
        let removed = try RepeatSimBinary.run(["place", "rm", "PHARM", "vet", "--db", db])
        #expect(removed.stdout == "Removed pharmacy.\nRemoved Veterinary clinic.\n", "\(removed.stderr)")
        #expect(try RepeatSimBinary.run(["place", "list", "--db", db]).stdout.split(separator: "\n").count == 2)
    }

    @Test(
        "Google Takeout's Semantic Location History: the places visited are imported once each and found by name; as a feed or as regions it is said to be places"
    )
    func googleTakeoutVisits() throws {
        let history = RepositoryPaths.track("places/google-takeout-2013_JUNE-excerpt.json")
        let db = temporaryDirectory("repeat-place-takeout") + "/repeat.sqlite"
        let imported = try RepeatSimBinary.run(["place", "import", history, "--radius", "60", "--db", db])
        #expect(imported.status == 0 && imported.stderr.isEmpty, "\(imported.stderr)")
        #expect(imported.stdout == "Imported 5 places from \(history): 5 new, 0 updated.\n")
        let near = try RepeatSimBinary.run(["place", "list", "--near", "37.4384,-122.1576", "--db", db])
        #expect(near.stdout.hasPrefix("Trader Joe's "), "\(near.stdout)")
        let task = try RepeatSimBinary.run(
            ["task", "add", "--title", "Coffee beans", "--every", "2w", "--at-place", "joanie", "--db", db])
        #expect(task.status == 0, "\(task.stderr)")
        let shown = try RepeatSimBinary.run(["task", "show", "coffee-beans", "--db", db])
        #expect(shown.stdout.contains("place      Joanie's Cafe: 37.4263542,-122.1445037 r=60 m"), "\(shown.stdout)")

        let feed = try RepeatSimBinary.run(["replay", history, "--regions", RepositoryPaths.track("visnjan-errands/places.csv")])
        #expect(feed.status == 1)
        #expect(
            feed.stderr.contains(
                "Google Takeout's Semantic Location History: visits to places, not a feed (repeat-sim place import"))
        let regions = try RepeatSimBinary.run(["replay", Self.drives, "--regions", history])
        #expect(regions.status == 1)
        #expect(
            regions.stderr.contains("Google Takeout's Semantic Location History: visits to places, not regions"),
            "\(regions.stderr)")
    }

    @Test(
        "several files: a name they share is imported once, from the last, warned of only where they put it far apart; a file without places is passed over"
    )
    func severalFiles() throws {
        let june = RepositoryPaths.track("places/google-takeout-2013_JUNE-excerpt.json")
        let folder = temporaryDirectory("repeat-place-several")
        let db = folder + "/repeat.sqlite"
        // Joanie's Cafe 1 m from the history's, Trader Joe's 7.8 km from it, and a place of its own.
        let csv = folder + "/corrections.csv"
        try "name,lat,lon\nJoanie's Cafe,37.42636,-122.14450\nTrader Joe's,37.5,-122.2\nBakery,37.43,-122.15\n".write(
            toFile: csv, atomically: true, encoding: .utf8)
        let empty = folder + "/2013_AUGUST.json"
        try #"{"timelineObjects":[]}"#.write(toFile: empty, atomically: true, encoding: .utf8)
        let imported = try RepeatSimBinary.run(["place", "import", june, empty, june, csv, "--db", db])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout == "Imported 6 places from 4 files: 6 new, 0 updated.\n")
        let warnings = imported.stderr.split(separator: "\n")
        #expect(warnings.count == 2, "\(imported.stderr)")
        #expect(warnings.contains { $0.hasPrefix("warning: \(empty): no named place") && $0.hasSuffix("; passed over") })
        #expect(warnings.contains("warning: \"Trader Joe's\" is in \(june) and \(csv), 7797 m apart; the one in \(csv) is kept"))
        let listed = try RepeatSimBinary.run(["place", "list", "--json", "--db", db])
        #expect(listed.stdout.contains(#""name":"Trader Joe's","lat":37.5,"lon":-122.2"#), "\(listed.stdout)")
        #expect(listed.stdout.contains(#""name":"Joanie's Cafe","lat":37.42636,"lon":-122.1445"#), "\(listed.stdout)")

        let again = try RepeatSimBinary.run(["place", "import", june, june, "--db", db])
        #expect(again.stdout == "Imported 5 places from 2 files: 0 new, 5 updated.\n" && again.stderr.isEmpty, "\(again)")
        let none = try RepeatSimBinary.run(["place", "import", empty, empty, "--db", db])
        #expect(none.status == 1)
        #expect(none.stderr.contains("Error: none of the 2 files holds a named place"), "\(none.stderr)")
        let twice = try RepeatSimBinary.run(["place", "import", "-", "-", "--db", db])
        #expect(twice.status == 1 && twice.stderr.contains("standard input (-) can be read once"), "\(twice.stderr)")
    }

    @Test("a phone's Timeline.json gives Home and Work; one that names neither is an error that says so")
    func timelineHomeAndWork() throws {
        let db = temporaryDirectory("repeat-place-timeline") + "/repeat.sqlite"
        let imported = try RepeatSimBinary.run(
            ["place", "import", RepositoryPaths.track("timeline/dawarich-timeline-new-format.json"), "--db", db])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("Imported 2 places from "), "\(imported.stdout)")
        let listed = try RepeatSimBinary.run(["place", "list", "--json", "--db", db])
        #expect(listed.stdout.contains(#""name":"Home","lat":48.8566,"lon":2.3522"#), "\(listed.stdout)")
        #expect(listed.stdout.contains(#""name":"Work","lat":48.8606,"lon":2.3376"#), "\(listed.stdout)")
        let unnamed = RepositoryPaths.track("timeline/dawarich-location-history.json")
        let none = try RepeatSimBinary.run(["place", "import", unnamed, "--db", db])
        #expect(none.status == 1)
        #expect(
            none.stderr.contains("names no Home or Work, and no other place (replay takes it as a FEED)"), "\(none.stderr)")
    }

    @Test("a file with no named place is an error; unnamed items are reported")
    func noNamedPlace() throws {
        let folder = temporaryDirectory("repeat-place-none")
        let gpx = folder + "/unnamed.gpx"
        try #"<gpx><wpt lat="1" lon="2"/><trk><trkseg><trkpt lat="1" lon="2"/></trkseg></trk></gpx>"#.write(
            toFile: gpx, atomically: true, encoding: .utf8)
        let result = try RepeatSimBinary.run(["place", "import", gpx, "--db", folder + "/repeat.sqlite"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("\(gpx): wpt[0]: a waypoint without a <name>; skipped") || result.stderr.contains("wpt[0]"),
            "\(result.stderr)")
        #expect(result.stderr.contains("Error: \(gpx): no named place (GPX <wpt> with a <name>"), "\(result.stderr)")
    }

    @Test(
        "task add --at-place NAME copies the place's position, radius and name; ambiguous and unknown names say what they could be"
    )
    func taskAtPlaceName() throws {
        let db = try Self.book("repeat-place-task")
        let added = try RepeatSimBinary.run([
            "task", "add", "--title", "Buy cat medicine", "--id", "cat-medicine", "--after", "10w-14w", "--time-zone",
            "Europe/Zagreb", "--start", "2020-10-05T09:00:00+02:00", "--at-place", "pharmacy", "--db", db,
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let show = try RepeatSimBinary.run(["task", "show", "cat-medicine", "--db", db])
        #expect(show.stdout.contains("place      Pharmacy: 45.27884,13.72245 r=150 m"), "\(show.stdout)")
        // The store's task, replayed live on the drive: the arrival in week 10 reminds at the pharmacy.
        let drive = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.drives)))
        let live = try RepeatSimBinary.run(["live", "-", "--db", db, "--json"], input: drive)
        #expect(
            live.stdout.contains(
                #""time":"2020-12-18T06:18:37Z","kind":"location","task":"cat-medicine","title":"Buy cat medicine","region":"Pharmacy""#
            ),
            "\(live.stdout)")
        // A radius and a name given with it win.
        let own = try RepeatSimBinary.run([
            "task", "add", "--title", "Vet", "--every", "1y", "--at-place", "Veterinary", "--radius", "40", "--place-name",
            "Dr. Rossi",
            "--db", db,
        ])
        #expect(own.status == 0, "\(own.stderr)")
        #expect(
            try RepeatSimBinary.run(["task", "show", "vet", "--db", db]).stdout.contains(
                "place      Dr. Rossi: 45.28517,13.72093 r=40 m"))
        // A radius of 1e308 m is shown in three digits, where converting it to a whole number trapped.
        let everywhere = try RepeatSimBinary.run([
            "task", "add", "--title", "Anywhere", "--every", "1y", "--at-place", "45.3,13.7", "--radius", "1e308", "--db", db,
        ])
        #expect(everywhere.status == 0, "\(everywhere.stderr)")
        let shown = try RepeatSimBinary.run(["task", "show", "anywhere", "--db", db])
        #expect(shown.status == 0 && shown.stdout.contains("45.3,13.7 r=1e+308 m"), "\(shown.stdout)\(shown.stderr)")
        try "name,lat,lon\nHome Office,45.3,13.7\n".write(toFile: db + ".csv", atomically: true, encoding: .utf8)
        _ = try RepeatSimBinary.run(["place", "import", db + ".csv", "--db", db])
        let ambiguous = try RepeatSimBinary.run(["task", "add", "--title", "X", "--every", "1d", "--at-place", "hom", "--db", db])
        #expect(ambiguous.status != 0)
        #expect(
            ambiguous.stderr.contains("'hom' could be Home (45.29411,13.71468), Home Office (45.3,13.7): give more of the name"),
            "\(ambiguous.stderr)")
        let unknown = try RepeatSimBinary.run([
            "task", "add", "--title", "X", "--every", "1d", "--at-place", "Pharmcy", "--db", db,
        ])
        #expect(unknown.stderr.contains("no place named 'Pharmcy'; did you mean Pharmacy"), "\(unknown.stderr)")
        #expect(try RepeatSimBinary.run(["task", "list", "--db", db]).stdout.contains("X") == false)
    }

    @Test("GPX waypoints as --regions, --radius wide: replay reminds at the pharmacy as with the CSV")
    func waypointsAsRegions() throws {
        let replay = try RepeatSimBinary.run(["replay", Self.drives, "--regions", Self.places, "--radius", "150", "--json"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let lines = replay.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.contains(#""region":"Pharmacy""#) })
    }

    @Test("--places names the nearest place of the book: each decoded fix, each reminder")
    func reverseLookup() throws {
        let db = try Self.book("repeat-place-near")
        let decoded = try RepeatSimBinary.run(["decode", Self.drives, "--json", "--places", "--db", db, "--near-within", "300"])
        let lines = decoded.stdout.split(separator: "\n")
        #expect(lines.count == 312)
        #expect(lines.first == #"{"time":"2020-12-11T06:15:50Z","lat":45.273518851,"lon":13.714209963,"ele":211.15}"#)
        #expect(
            lines.contains(
                #"{"time":"2020-12-11T06:18:21Z","lat":45.280907666,"lon":13.720054915,"ele":225.57,"near":"Pharmacy","near_m":297}"#
            ))
        #expect(lines.filter { $0.contains("near") }.count < 312, "fixes farther than 300 m name no place")
        let replay = try RepeatSimBinary.run(["replay", Self.drives, "--tasks", Self.scenario, "--places", "--db", db])
        #expect(
            replay.stdout.contains(
                "location    cat-medicine          Pharmacy              in its window, due 2021-01-11T08:00:00Z; near Pharmacy (123 m)"
            ),
            "\(replay.stdout)")
        let empty = try RepeatSimBinary.run([
            "decode", Self.drives, "--places", "--db", temporaryDirectory("repeat-place-empty") + "/none.sqlite",
        ])
        #expect(empty.status != 0)
        #expect(empty.stderr.contains("no task store at"), "\(empty.stderr)")
    }
}
