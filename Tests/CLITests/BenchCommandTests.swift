import Foundation
import TestSupport
import Testing

@Suite("repeat-sim bench with the user's files")
struct BenchCommandTests {
    /// Writes `text` to a fresh temporary file and returns its path.
    func temporaryFile(_ name: String, _ text: String) throws -> String {
        let path = temporaryDirectory("bench") + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func benchJSON(regions: String, positions: String) throws -> (json: [String: Any], stderr: String) {
        let result = try RepeatSimBinary.run(["bench", "--regions", regions, "--positions", positions, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (try #require(object), result.stderr)
    }

    @Test("positions are read like a CSV feed: ; delimiter, loose names; a bad row is located and skipped")
    func positionsLikeAFeed() throws {
        let regions = try temporaryFile("r.csv", "id;latitude;longitude;radius_m\nshop;52.52;13.40;100\n")
        let positions = try temporaryFile(
            "p.csv",
            """
            timestamp;Latitude;Lng\r
            1700000000;52.52;13.40\r
            1700000001;north;13.40\r
            1700000002;52.53;13.40\r

            """)
        let (json, stderr) = try benchJSON(regions: regions, positions: positions)
        #expect(json["regions"] as? Int == 1)
        #expect(json["positions"] as? Int == 2)
        #expect(json["hits"] as? Int == 1)
        #expect(stderr.contains("warning: \(positions):3: badField: latitude/longitude is not a decimal number; row skipped"))
    }

    @Test("a positions file without latitude and longitude columns is an error naming it")
    func positionsWithoutColumns() throws {
        let regions = try temporaryFile("r.csv", "id,lat,lon,radius\na,52.52,13.40,100\n")
        let positions = try temporaryFile("p.csv", "when,where\nnow,here\n")
        let result = try RepeatSimBinary.run(["bench", "--regions", regions, "--positions", positions, "--json"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("Error: \(positions):1: badHeader: header 'when,where' names no latitude"))
    }

    @Test(
        "a generated workload larger than memory holds is refused, where it was made until the allocation failed",
        arguments: [
            (["--regions-count", "10000001"], "--regions-count must be at most 10 000 000"),
            (["--regions-count", String(Int.max)], "--regions-count must be at most 10 000 000"),
            (["--positions-count", "100000001"], "--positions-count must be at most 100 000 000"),
        ])
    func workloadTooLarge(arguments: [String], message: String) throws {
        let result = try RepeatSimBinary.run(["bench"] + arguments)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: " + message), "\(result.stderr)")
    }
}
