import Foundation

/// The JSON lines of one `evaluate --shard I/N` run: the header
/// (``ShardHeader``, as replay's shards write it), a tally of each run
/// the shard scored, and a closing line. `repeat-sim merge` adds the
/// shards' tallies into the rows of the run without `--shard`.
public struct EvaluationShardFile: Sendable {
    /// The last line: what every shard of a run says alike, and the proof
    /// that the shard finished.
    public struct End: Codable, Sendable, Equatable {
        /// What was scored, for the summary ("… fixes of … devices").
        public var described: String
        /// The runs of the whole evaluation (1 for a recorded feed).
        public var runs: Int
        /// The settings of the sweep.
        public var settings: Int

        /// A closing line.
        public init(described: String, runs: Int, settings: Int) {
            self.described = described
            self.runs = runs
            self.settings = settings
        }
    }

    /// One line.
    private struct Line: Codable {
        var header: ShardHeader?
        var tally: EvaluationRunTally?
        var end: End?
    }

    /// The file, as named.
    public let path: String
    /// Its header.
    public let header: ShardHeader
    /// Its runs' tallies.
    public let tallies: [EvaluationRunTally]
    /// Its closing line.
    public let end: End

    /// The lines of a shard: `header`, `tallies` and `end`, each with its
    /// newline; keys sorted, so that a shard writes the same bytes at
    /// every run.
    public static func lines(header: ShardHeader, tallies: [EvaluationRunTally], end: End) -> [String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let lines = [Line(header: header)] + tallies.map { Line(tally: $0) } + [Line(end: end)]
        // Encoding values of these types cannot fail: no non-finite number
        // is among them.
        return lines.map { String(decoding: try! encoder.encode($0), as: UTF8.self) + "\n" }
    }

    /// The header a shard file's first `line` holds, when it holds one.
    public static func header(inLine line: Data) -> ShardHeader? {
        (try? JSONDecoder().decode(Line.self, from: line))?.header
    }

    /// The first line of the file `path`, without its newline (`nil` when
    /// it cannot be opened).
    public static func firstLine(of path: String) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var first = Data()
        while let chunk = try? handle.read(upToCount: 65_536), !chunk.isEmpty {
            if let newline = chunk.firstIndex(of: 10) {
                first += chunk[chunk.startIndex..<newline]
                break
            }
            first += chunk
        }
        return first
    }

    /// Reads the shard file `path`.
    /// - Throws: ``ShardFileError`` for a file that cannot be read, is not
    ///   an evaluate shard's, or was cut short.
    public init(path: String) throws {
        self.path = path
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw ShardFileError(path: path, line: nil, problem: "cannot be read (\(error.localizedDescription))")
        }
        let decoder = JSONDecoder()
        var header: ShardHeader?
        var tallies: [(tally: EvaluationRunTally, line: Int)] = []
        var end: (end: End, line: Int)?
        let lines = data.split(separator: 10, omittingEmptySubsequences: false)
        for (number, text) in lines.enumerated() {
            if text.isEmpty, number > 0 { continue }
            let line: Line
            do { line = try decoder.decode(Line.self, from: text) } catch {
                throw ShardFileError(
                    path: path, line: number + 1,
                    problem: number == 0
                        ? "not the output of `repeat-sim evaluate --shard I/N` (no shard header)"
                        : number == lines.count - 1
                            ? "the last line is cut short: the shard's run did not finish (or the file was cut)"
                            : "not an evaluate shard's line (\(ShardLineProblem.described(error)))")
            }
            guard end == nil else {
                throw ShardFileError(path: path, line: number + 1, problem: "a line after the closing one: files joined?")
            }
            switch (number, line.header, line.tally, line.end) {
            case (0, let first?, nil, nil): header = first
            case (0, _, _, _):
                throw ShardFileError(
                    path: path, line: 1, problem: "not the output of `repeat-sim evaluate --shard I/N` (no shard header)")
            case (_, nil, let tally?, nil): tallies.append((tally, number + 1))
            case (_, nil, nil, let last?): end = (last, number + 1)
            case (_, _?, _, _):
                throw ShardFileError(path: path, line: number + 1, problem: "a second header: files joined together?")
            default: throw ShardFileError(path: path, line: number + 1, problem: "not an evaluate shard's line")
            }
        }
        guard let header else {
            throw ShardFileError(path: path, line: nil, problem: "empty: not the output of `repeat-sim evaluate --shard I/N`")
        }
        guard header.version == ShardHeader.currentVersion else {
            throw ShardFileError(
                path: path, line: 1,
                problem: "written by another version of repeat-sim (shard lines v\(header.version), this one reads "
                    + "v\(ShardHeader.currentVersion))")
        }
        guard let end else {
            throw ShardFileError(
                path: path, line: nil,
                problem: "ends before its closing line: the shard's run did not finish (or the file was cut)")
        }
        guard end.end.runs >= 1, end.end.settings >= 1 else {
            throw ShardFileError(
                path: path, line: end.line,
                problem: "\(end.end.runs) runs of \(end.end.settings) settings: was the file edited?")
        }
        for (tally, line) in tallies {
            guard tally.settings.count == end.end.settings else {
                throw ShardFileError(
                    path: path, line: line,
                    problem: "run \(tally.run) has \(tally.settings.count) settings' tallies, not \(end.end.settings)")
            }
            if let problem = tally.problem(runs: end.end.runs) {
                throw ShardFileError(path: path, line: line, problem: problem + ": was the file edited?")
            }
        }
        self.header = header
        self.tallies = tallies.map(\.tally)
        self.end = end.end
    }
}
