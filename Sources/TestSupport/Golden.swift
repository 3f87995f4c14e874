import Foundation
import Testing

/// Golden files: committed expected outputs, re-recordable with one command.
///
/// `RECORD_TRACKS=1 swift test --filter …` rewrites the files instead of
/// comparing and reports ``Outcome/recorded``, which tests turn into a
/// failure so that a changed golden is never silent.
public enum Golden {
    /// How a comparison came out.
    public enum Outcome: Equatable {
        /// The output equals the golden file.
        case matches
        /// The output differs; the golden file's text.
        case differs(expected: String)
        /// There is no golden file yet.
        case missing
        /// `RECORD_TRACKS=1`: the golden file was rewritten.
        case recorded
    }

    /// Compares `actual` with the file at `path` (or rewrites it when recording).
    public static func check(_ actual: String, against path: String) throws -> Outcome {
        if environment("RECORD_TRACKS") == "1" {
            try Data(actual.utf8).write(to: URL(fileURLWithPath: path))
            return .recorded
        }
        guard let data = FileManager.default.contents(atPath: path) else { return .missing }
        let expected = String(decoding: data, as: UTF8.self)
        return expected == actual ? .matches : .differs(expected: expected)
    }
}

extension Golden {
    /// Compares `actual` with the golden file at `path` and records an
    /// issue unless it matches: the difference, a missing file, or a
    /// rewrite under `RECORD_TRACKS=1` (re-run `swift test --filter
    /// suite` to record, then again to check).
    public static func expect(
        _ actual: String, matches path: String, suite: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        switch try check(actual, against: path) {
        case .matches:
            break
        case .recorded:
            Issue.record(
                "RECORD_TRACKS=1: rewrote \(path); check the diff, commit it with a reason, then run again",
                sourceLocation: sourceLocation)
        case .missing:
            Issue.record(
                "\(path) is missing; record it with RECORD_TRACKS=1 swift test --filter \(suite)", sourceLocation: sourceLocation)
        case .differs(let expected):
            #expect(actual == expected, "\(path)", sourceLocation: sourceLocation)
        }
    }
}
