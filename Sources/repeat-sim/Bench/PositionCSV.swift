import FeedParsing
import GeoCore

/// Reads the coordinates of a positions CSV (`t,lat,lon` or `time,lat,lon`)
/// with the CSV feed decoder: the same header names, delimiters and quoting
/// as a CSV feed, a megabyte at a time so that a million positions never
/// sit in memory as fixes.
enum PositionCSV {
    /// How many skipped rows are reported one by one.
    static let reportedRows = 5

    /// The coordinates of every row; a row without a readable latitude and
    /// longitude is reported on stderr with `source:line` and skipped. A
    /// file without latitude and longitude columns is an error.
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
                if skipped <= reportedRows { GeofenceBench.printError("warning: " + diagnostic.located(in: source)) }
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
            GeofenceBench.printError("Error: " + unreadable.located(in: source))
            throw BenchError.unreadable(source)
        }
        if skipped > reportedRows { GeofenceBench.printError("warning: \(source): \(skipped) rows skipped in all") }
        return points
    }
}
