import FeedParsing
import Foundation
import GeoCore

/// Reads the coordinates of a positions CSV (`t,lat,lon` or `time,lat,lon`)
/// with the CSV feed decoder: the same header names, delimiters and quoting
/// as a CSV feed, a megabyte at a time so that a million positions never
/// sit in memory as fixes.
public enum PositionsFile {
    /// How many skipped rows are reported one by one.
    static let reportedRows = 5

    /// The coordinates of every row of the file at `path`; a row without a
    /// readable latitude and longitude is reported on stderr with
    /// `path:line` and skipped.
    /// - Throws: ``PositionsFileError`` when the file cannot be read or has
    ///   no latitude and longitude columns.
    public static func read(path: String) throws -> [Coordinate] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PositionsFileError(message: "cannot read \"\(path)\": no such file, or not readable")
        }
        return try read([UInt8](data), source: path)
    }

    static func read(_ bytes: [UInt8], source: String) throws -> [Coordinate] {
        let decoder = CSVDecoder()
        var batch = FeedBatch()
        var points: [Coordinate] = []
        points.reserveCapacity(bytes.count / 30)
        var skipped = 0
        var unreadable: FeedDiagnostic?
        func drain() {
            for fix in batch.fixes { points.append(fix.coordinate) }
            for diagnostic in batch.diagnostics {
                if diagnostic.code == .badHeader {
                    unreadable = unreadable ?? diagnostic
                    continue
                }
                skipped += 1
                if skipped <= reportedRows { Console.warn(diagnostic.located(in: source)) }
            }
            batch.removeAll()
        }
        let chunk = 1 << 20
        bytes.withUnsafeBytes { raw in
            var start = 0
            while start < raw.count {
                let end = min(raw.count, start + chunk)
                decoder.decode(UnsafeRawBufferPointer(rebasing: raw[start..<end]), into: &batch)
                drain()
                start = end
            }
        }
        decoder.finish(into: &batch)
        drain()
        if let unreadable {
            throw PositionsFileError(message: unreadable.located(in: source))
        }
        if skipped > reportedRows { Console.warn("\(source): \(skipped) rows skipped in all") }
        return points
    }
}

/// A positions file that cannot be used.
public struct PositionsFileError: Error, CustomStringConvertible {
    /// What is wrong, with the file's name.
    public let message: String
    public var description: String { message }
}
