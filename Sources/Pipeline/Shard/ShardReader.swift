import Foundation
import GeoCore
import Geofencing

#if canImport(Glibc)
    import Glibc
#endif

/// One `--shard` run's lines, read one outcome at a time for the merge.
public final class ShardReader {
    /// Where an outcome falls in the unsharded run: inputs in the feed's
    /// order, then the finishing devices in name order.
    enum Place: Comparable {
        case input(feed: Int, input: Int)
        case finishing(String)
    }

    /// The file.
    public let path: String
    /// Its first line.
    public let header: ShardHeader
    /// Its last line, once read.
    public private(set) var summary: ShardSummary?
    /// The next outcome; `nil` once the summary was read.
    private(set) var current: ShardItem?
    private let file: UnsafeMutablePointer<FILE>
    private var lineNumber = 0
    private let decoder = JSONDecoder()

    /// Opens `path` and reads its header and first outcome.
    /// - Throws: ``ShardFileError`` for a file that cannot be read or is
    ///   not a shard's.
    public init(path: String) throws {
        self.path = path
        guard let file = fopen(path, "r") else {
            throw ShardFileError(path: path, line: nil, problem: String(cString: strerror(errno)))
        }
        self.file = file
        guard let first = Self.line(of: file)?.bytes, let line = try? decoder.decode(ShardLine.self, from: first),
            let header = line.header
        else {
            fclose(file)
            throw ShardFileError(
                path: path, line: 1,
                problem: "not the output of `repeat-sim replay --shard I/N` or `evaluate --shard I/N` (no shard header)")
        }
        guard header.version == ShardHeader.currentVersion else {
            fclose(file)
            throw ShardFileError(
                path: path, line: 1,
                problem: "written by another version of repeat-sim (shard lines v\(header.version), this one reads "
                    + "v\(ShardHeader.currentVersion))")
        }
        self.header = header
        lineNumber = 1
        try advance()
    }

    deinit { fclose(file) }

    /// Where ``current`` falls; `nil` when there is none.
    var place: Place? {
        guard let current else { return nil }
        if let input = current.input { return .input(feed: current.feed, input: input) }
        return .finishing(current.finishing ?? "")
    }

    /// Reads the next outcome, or the summary at the end.
    func advance() throws {
        current = nil
        guard summary == nil else { return }
        guard let (bytes, ended) = Self.line(of: file) else {
            throw ShardFileError(
                path: path, line: nil,
                problem: "ends before its summary line: the shard's run did not finish (or the file was cut)")
        }
        lineNumber += 1
        if let item = bytes.withUnsafeBytes(ShardItem.scanned(from:)) {
            current = item
            return
        }
        let line: ShardLine
        do {
            line = try decoder.decode(ShardLine.self, from: bytes)
        } catch {
            throw problem(
                ended
                    ? "not a shard line (\(ShardLineProblem.described(error)))"
                    : "the last line is cut short: the shard's run did not finish (or the file was cut)")
        }
        if let item = line.item {
            current = item
        } else if let summary = line.summary {
            guard summary.counts.allSatisfy({ $0 >= 0 }) else {
                throw problem("a negative count in the summary line: was the file edited?")
            }
            self.summary = summary
        } else {
            throw ShardFileError(path: path, line: lineNumber, problem: "a second header: files joined together?")
        }
    }

    /// A problem with the line just read, located.
    func problem(_ text: String) -> ShardFileError { ShardFileError(path: path, line: lineNumber, problem: text) }

    /// The next line of `file` without its newline, and whether a newline
    /// ended it (not the end of the file); `nil` at the end.
    private static func line(of file: UnsafeMutablePointer<FILE>) -> (bytes: Data, ended: Bool)? {
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        let length = getline(&buffer, &capacity, file)
        guard length > 0, let buffer else { return nil }
        let ended = buffer[length - 1] == 10
        return (Data(bytes: buffer, count: ended ? length - 1 : length), ended)
    }
}

/// A shard file that cannot be merged, with where and why.
public struct ShardFileError: Error, CustomStringConvertible {
    /// The file.
    public var path: String
    /// The line, when one is to blame.
    public var line: Int?
    /// What is wrong.
    public var problem: String

    public var description: String { "\(path)\(line.map { ":\($0)" } ?? ""): \(problem)" }
}
