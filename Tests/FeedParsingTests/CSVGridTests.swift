import FeedParsing
import Foundation
import GeoCore
import TestSupport
import Testing

/// CSV files with grid coordinates instead of latitude/longitude, checked
/// row by row against the reference readings in ../shared/corpus:
/// GPSBabel 1.8.0's unicsv output (six decimals, so within 1e-6°), and for
/// the British National Grid GPSBabel's upstream `reference/bngtest.gpx`
/// (GPSBabel 1.8.0 shifts OSGB36 with Molodensky, 7 m from the Ordnance
/// Survey's Helmert transformation that Repeat and GPSBabel's development
/// head use).
@Suite("CSV grid coordinates")
struct CSVGridTests {
    /// (latitude, longitude, time) per row of a reference reading.
    typealias ReferenceRow = (latitude: Double, longitude: Double, time: String?)

    /// The rows of a GPSBabel unicsv file (`No,Latitude,Longitude,…,Date,Time`).
    static func unicsvRows(_ path: String) throws -> [ReferenceRow] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
        let header = lines[0].split(separator: ",").map(String.init)
        let latitude = try #require(header.firstIndex(of: "Latitude"))
        let longitude = try #require(header.firstIndex(of: "Longitude"))
        let date = header.firstIndex(of: "Date"), clock = header.firstIndex(of: "Time")
        return try lines.dropFirst().map { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            var time: String?
            if let date, let clock {
                time = cells[date].replacingOccurrences(of: "/", with: "-") + "T" + cells[clock] + "Z"
            }
            return (try #require(Double(cells[latitude])), try #require(Double(cells[longitude])), time)
        }
    }

    /// The track or waypoint positions of a GPX file written by GPSBabel, with their times.
    static func gpxRows(_ path: String) throws -> [ReferenceRow] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let point = try Regex(#"lat="([-0-9.]+)" lon="([-0-9.]+)">\s*(?:<time>([^<]+)</time>)?"#)
        return try text.matches(of: point).map { match in
            let latitude = match.output[1].substring.flatMap { Double(String($0)) }
            let longitude = match.output[2].substring.flatMap { Double(String($0)) }
            return (try #require(latitude), try #require(longitude), match.output[3].substring.map(String.init))
        }
    }

    @Test(
        "every row matches the reference reading", .needsSharedCorpus,
        arguments: [
            ("csv/gpsbabel/grid-utm.csv", "grid-utm.csv.expected.unicsv"),
            ("csv/gpsbabel/grid-swiss.csv", "grid-swiss.csv.expected.unicsv"),
            ("csv/gpsbabel/track/trackfilter_segment.csv", "trackfilter_segment.csv.expected.unicsv"),
            ("csv/gpsbabel/track/utm_subsecond_track.csv", "utm_subsecond_track.csv.expected.unicsv"),
            ("csv/gpsbabel/bngtest.csv", "bngtest.csv.expected.upstream.gpx"),
        ])
    func corpusFile(input: String, reference: String) throws {
        let path = RepositoryPaths.corpus + "/" + input
        let referencePath = (path as NSString).deletingLastPathComponent + "/" + reference
        let expected = reference.hasSuffix(".gpx") ? try Self.gpxRows(referencePath) : try Self.unicsvRows(referencePath)
        let batch = decode(try readBytes(path), format: .csv)
        #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics)")
        try #require(batch.fixes.count == expected.count)
        for (k, (fix, row)) in zip(batch.fixes, expected).enumerated() {
            #expect(
                abs(fix.coordinate.latitude - row.latitude) <= 1e-6,
                "row \(k + 1) latitude \(fix.coordinate.latitude) vs \(row.latitude)")
            #expect(
                abs(fix.coordinate.longitude - row.longitude) <= 1e-6,
                "row \(k + 1) longitude \(fix.coordinate.longitude) vs \(row.longitude)")
            if let time = row.time {
                #expect(fix.time == RFC3339.parse(time), "row \(k + 1) time \(fix.time.map(RFC3339.format) ?? "none") vs \(time)")
            }
        }
    }

    @Test("full British National Grid eastings/northings without a square, and the short utm_* names")
    func otherSpellings() throws {
        let bng = decode("bng_e;bng_n\n396552;103097\n", format: .csv)
        let fix = try #require(bng.fixes.first)
        #expect(abs(fix.coordinate.latitude - 50.827399503) < 1e-6 && abs(fix.coordinate.longitude + 2.050323375) < 1e-6)
        let utm = decode("utm_z,utm_e,utm_n\n44,413954,2809536\n", format: .csv)
        let north = try #require(utm.fixes.first)  // no band column: northern hemisphere
        #expect(abs(north.coordinate.latitude - 25.400181) < 1e-6 && abs(north.coordinate.longitude - 80.144526) < 1e-6)
    }

    /// Bad grid rows: the legend, the input, the fixes kept, the diagnostic codes.
    static let hostile: [(legend: String, input: String, fixes: Int, codes: [FeedDiagnostic.Code])] = [
        ("zone 61", "UTM-Zone,UTM-Ch,UTM-East,UTM-North\n61,N,500000,0\n31,N,500000,0\n", 1, [.badField]),
        ("band I", "UTM-Zone,UTM-Ch,UTM-East,UTM-North\n31,I,500000,0\n", 0, [.badField]),
        ("fractional zone", "UTM-Zone,UTM-Ch,UTM-East,UTM-North\n31.5,N,500000,0\n", 0, [.badField]),
        ("no easting", "UTM-Zone,UTM-Ch,UTM-East,UTM-North\n31,N,,0\n", 0, [.missingField]),
        ("easting not a number", "Swiss-East,Swiss-North\nabc,200000\n600000,200000\n", 1, [.badField]),
        ("unknown 100 km square", "BNG-Zone,BNG-East,BNG-North\nIX,1000,1000\nST,96552,3097\n", 1, [.badField]),
        ("easting outside the square", "BNG-Zone,BNG-East,BNG-North\nST,196552,3097\n", 0, [.badField]),
        ("huge zone", "UTM-Zone,UTM-East,UTM-North\n1e300,500000,0\n", 0, [.badField]),
    ]

    @Test("bad grid rows are located diagnostics; good rows are kept", arguments: 0..<hostile.count)
    func hostileInput(row: Int) {
        let expected = Self.hostile[row]
        let batch = decode(expected.input, format: .csv)
        #expect(batch.fixes.count == expected.fixes, "\(expected.legend)")
        #expect(batch.diagnostics.map(\.code) == expected.codes, "\(expected.legend): \(batch.diagnostics)")
        #expect(batch.diagnostics.allSatisfy { $0.location.line == 2 }, "\(expected.legend)")
    }
}
