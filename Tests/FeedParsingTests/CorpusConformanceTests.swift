import FeedParsing
import Foundation
import GeoCore
import TestSupport
import Testing

/// Conformance with the reference tools over ../shared/corpus: for every
/// file, the number of fixes and the first and last fix (position within
/// 2e-6°, time to the second) must match at least one reference reading:
/// gpsd's own `.chk` or GPSBabel for NMEA, GPSBabel's track points (gpxpy's
/// where GPSBabel fails) for GPX, GPSBabel 1.8.0's unicsv reading or the
/// upstream project's own expected output (GPSBabel's `reference/` file,
/// `NAME.expected.upstream.*`, where the corpus compared it) for CSV.
/// Where no reference agrees, the file must be listed in
/// ``documentedDisagreements`` with the reason (also in Tracks/README.md),
/// and a listed file that starts agreeing fails the test too, so the list
/// stays exact.
@Suite("Corpus conformance", .needsSharedCorpus)
struct CorpusConformanceTests {
    /// Files where Repeat deliberately reads differently from every reference tool.
    static let documentedDisagreements: [String: String] = [
        "nmea/gpsbabel/track/nmea+ms.txt":
            "GPSBabel pairs each GGA with the next RMC (a different UTC time); Repeat merges sentences by UTC time as DESIGN.md says: 37 epochs, not 26",
        "nmea/gpsbabel/track/nmeadate.nmea":
            "year 98: GPSBabel 1.8.0 reads 2098; Repeat pivots two-digit years at 80 (1998), as the GPX this test came from says",
        "nmea/gpsbabel/track/nmeadatetime.nmea":
            "times `222515.x`, `222523.0x`, `.1` are malformed: Repeat skips them (badField), GPSBabel reads them as 00:00:00",
        "nmea/gpsd/bt451.log":
            "2 Hz log: gpsd drops the first and last half-second epochs, GPSBabel labels positions with the next sentence's time; Repeat emits every epoch at its own time (15)",
        "nmea/gpsd/foretrex-201.log":
            "gpsd drops the last epoch (20:00:16), GPSBabel labels positions with the next cycle's time; Repeat has 20:00:04…20:00:16 (7)",
        "nmea/gpsd/humminbird-M37.log":
            "time goes backwards and GLL/RMC carry different times; gpsd gives 31, GPSBabel 10, Repeat 33 (one fix per distinct UTC time in order)",
        "nmea/gpsd/venus634lp.log":
            "gpsd drops the first epoch (08:50:32, GGA and GLL before the first RMC: Repeat back-fills its date) and the last (an RMC alone at the end); Repeat keeps both (7)",
        "csv/gpsbabel/track/interptrack.csv": "GPSBabel cannot parse epoch-millisecond times (0 rows); Repeat reads all 35 rows",
    ]

    /// Decoding options a file needs, where the reference reading needed
    /// the same information as a reader option: a date-less log (GPSBabel
    /// was given the date), a headerless longitude-first CSV (GPSBabel was
    /// given `fields=lon+lat+alt+name+time`).
    static let options: [String: FeedDecodingOptions] = [
        "nmea/gpsbabel/track/addmultipledaysfwd.nmea": FeedDecodingOptions(
            defaultDate: CivilCalendar.days(year: 2019, month: 3, day: 8)),
        "csv/gpsbabel/realtime.csv": FeedDecodingOptions(csvColumns: ["lon", "lat", "alt", "name", "time"]),
    ]

    struct Reading {
        var count: Int
        var first: [String: Any]?
        var last: [String: Any]?
    }

    static func summary(_ entry: CorpusEntry) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: entry.absolutePath + ".expected.summary.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func readings(_ entry: CorpusEntry, _ summary: [String: Any]) -> [Reading] {
        func reading(_ object: Any?, count key: String = "points") -> Reading? {
            guard let object = object as? [String: Any], let count = object[key] as? Int else { return nil }
            return Reading(count: count, first: object["first"] as? [String: Any], last: object["last"] as? [String: Any])
        }
        let babel = (summary["gpsbabel"] as? [String: Any])?["trk"]
        // GPSBabel's own expected output from its reference/ folder, where
        // the corpus compared it (a plain read, no filter applied).
        let upstreamSummary = summary["upstream"] as? [String: Any]
        let upstream = upstreamSummary?["compared"] as? Bool == true ? reading(upstreamSummary) : nil
        switch entry.format {
        case .nmea where entry.path.hasPrefix("nmea/gpsd/"):
            return [reading(summary["gpsd_chk"], count: "fix_epochs"), reading(babel)].compactMap { $0 }
        case .nmea:
            return [reading(babel), reading(summary["expected"])].compactMap { $0 }
        case .gpx:
            let gpxpy = summary["gpxpy"] as? [String: Any]
            let trackPoints = (gpxpy?["totals"] as? [String: Any])?["track_points"] as? Int
            let babelFailed = ((babel as? [String: Any])?["rc"] as? Int ?? 0) != 0
            if babelFailed, let trackPoints { return [Reading(count: trackPoints)] }
            return [reading(babel)].compactMap { $0 }
        default:
            return [reading(summary["expected"]), upstream].compactMap { $0 }
        }
    }

    static func matches(_ fix: Fix?, _ reference: [String: Any]?) -> Bool {
        guard let reference else { return true }
        guard let fix, let lat = reference["lat"] as? Double, let lon = reference["lon"] as? Double else { return false }
        guard abs(fix.coordinate.latitude - lat) <= 2e-6, abs(fix.coordinate.longitude - lon) <= 2e-6 else { return false }
        guard let text = reference["time"] as? String, text.first != "T", let time = RFC3339.parse(text) else { return true }
        return fix.time.map { $0.nanoseconds / 1_000_000_000 == time.nanoseconds / 1_000_000_000 } ?? false
    }

    static func agrees(_ entry: CorpusEntry) throws -> Bool {
        let bytes = try readBytes(entry.absolutePath)
        let fixes = decode(bytes, format: entry.format, options: options[entry.path] ?? .init()).fixes
        return readings(entry, try summary(entry)).contains { reading in
            fixes.count == reading.count
                && (reading.count == 0 || (matches(fixes.first, reading.first) && matches(fixes.last, reading.last)))
        }
    }

    @Test("every corpus file agrees with a reference tool or is a documented disagreement", arguments: CorpusEntry.all)
    func conformance(entry: CorpusEntry) throws {
        let agrees = try Self.agrees(entry)
        if let reason = Self.documentedDisagreements[entry.path] {
            #expect(!agrees, "listed as a disagreement but agrees now; remove it from the list: \(reason)")
        } else {
            #expect(agrees, "\(entry.path) disagrees with every reference tool")
        }
    }

    @Test("the agreement figure")
    func agreementFigure() throws {
        let entries = CorpusEntry.all
        try #require(entries.count == 161, "the corpus MANIFEST lists 161 files")
        let agreeing = try entries.filter { try Self.agrees($0) }.count
        let permille = (agreeing * 1000 + entries.count / 2) / entries.count
        print(
            "Corpus agreement: \(agreeing) of \(entries.count) files (\(permille / 10).\(permille % 10) %); \(Self.documentedDisagreements.count) documented disagreements"
        )
        #expect(agreeing + Self.documentedDisagreements.count == entries.count)
    }

    @Test("GPX waypoints match gpxpy's count", arguments: CorpusEntry.all.filter { $0.format == .gpx })
    func waypoints(entry: CorpusEntry) throws {
        let gpxpy = try #require(try Self.summary(entry)["gpxpy"] as? [String: Any])
        guard gpxpy["ok"] as? Bool == true, let totals = gpxpy["totals"] as? [String: Any],
            let expected = totals["waypoints"] as? Int
        else { return }
        let batch = decode(try readBytes(entry.absolutePath), format: .gpx, options: FeedDecodingOptions(collectWaypoints: true))
        #expect(batch.waypoints.count == expected)
    }
}
