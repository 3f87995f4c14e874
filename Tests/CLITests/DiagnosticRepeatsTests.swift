import FeedParsing
import Foundation
import TestSupport
import Testing

/// A diagnostic repeated on many lines is printed three times, then
/// counted; `--verbose` prints them all.
@Suite("repeated diagnostics")
struct DiagnosticRepeatsTests {
    /// Ten epochs without a fix (GGA quality 0), then one fix.
    static let log =
        (0..<10).map { second in
            NMEAEncoder.sentence("GPGGA,1200\(String(format: "%02d", second)).00,,,,,0,00,,,M,,M,,")
        }.joined()
        + NMEAEncoder.sentence("GPGGA,120010.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")

    @Test("the same diagnostic ten times: three lines and a count")
    func repeatsAreCounted() throws {
        let result = try RepeatSimBinary.run(["decode", "-", "--date", "2025-03-17"], input: Self.log)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("invalidFix: epoch") }.count == 3, "\(result.stderr)")
        #expect(
            lines.contains("… and 7 more like this: epoch 12:00:03 UTC: GGA fix quality 0 (no fix) (use --verbose to see all)"),
            "\(result.stderr)")
        #expect(lines.last?.contains("1 fix, 10 skipped (invalidFix 10)") == true, "\(result.stderr)")

        let verbose = try RepeatSimBinary.run(["decode", "-", "--date", "2025-03-17", "--verbose"], input: Self.log)
        #expect(verbose.stderr.split(separator: "\n").filter { $0.contains("invalidFix: epoch") }.count == 10)
        #expect(!verbose.stderr.contains("more like this"))
    }
}

@Suite("repeat-sim --version")
struct VersionTests {
    @Test("--version prints a semantic version and exits 0")
    func versionIsPrinted() throws {
        let result = try RepeatSimBinary.run(["--version"])
        #expect(result.status == 0)
        let version = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(
            version.split(separator: ".").count == 3 && version.split(separator: ".").allSatisfy { Int($0) != nil }, "\(version)")
    }
}
