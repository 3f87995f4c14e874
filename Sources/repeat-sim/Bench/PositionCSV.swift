import Foundation
import GeoCore

/// Reads the coordinates of a positions CSV (`t,lat,lon` or `time,lat,lon`,
/// header names matched loosely) quickly, for the benchmark.
enum PositionCSV {
    /// The coordinates of every data row; rows with unreadable numbers are
    /// reported on stderr (the first few) and skipped.
    static func read(_ bytes: [UInt8], source: String) throws -> [Coordinate] {
        var text = bytes
        text.append(0)
        var headerEnd = 0
        while headerEnd < bytes.count, bytes[headerEnd] != 0x0A { headerEnd += 1 }
        let header = String(decoding: bytes[0..<headerEnd], as: UTF8.self)
            .split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() }
        guard let latColumn = header.firstIndex(where: { ["lat", "latitude"].contains($0) }),
            let lonColumn = header.firstIndex(where: { ["lon", "lng", "long", "longitude"].contains($0) })
        else {
            GeofenceBench.printError("Error: \(source):1: the header needs lat and lon columns, got \(header)")
            throw BenchError.unreadable(source)
        }
        var points: [Coordinate] = []
        points.reserveCapacity(bytes.count / 30)
        var skipped = 0
        text.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            var position = headerEnd + 1
            var line = 1
            while position < bytes.count {
                line += 1
                var lat = Double.nan
                var lon = Double.nan
                var column = 0
                var fieldStart = position
                var cursor = position
                while true {
                    let byte = buffer[cursor]
                    if byte == 0x2C || byte == 0x0A || byte == 0x0D || byte == 0 {
                        if column == latColumn || column == lonColumn {
                            var end: UnsafeMutablePointer<CChar>?
                            let start = UnsafeMutableRawPointer(base + fieldStart).assumingMemoryBound(to: CChar.self)
                            let value = strtod(start, &end)
                            let consumed = end.map { UnsafeMutableRawPointer($0) - UnsafeMutableRawPointer(start) } ?? 0
                            if consumed == cursor - fieldStart, consumed > 0 {
                                if column == latColumn { lat = value } else { lon = value }
                            }
                        }
                        column += 1
                        fieldStart = cursor + 1
                        if byte != 0x2C { break }
                    }
                    cursor += 1
                }
                while cursor < bytes.count, buffer[cursor] == 0x0D || buffer[cursor] == 0x0A {
                    if buffer[cursor] == 0x0A { cursor += 1; break }
                    cursor += 1
                }
                if cursor > position + 1 || column > 1 {
                    if lat.isFinite && lon.isFinite {
                        points.append(Coordinate(latitude: lat, longitude: lon))
                    } else if column > 1 {
                        skipped += 1
                        if skipped <= 5 { GeofenceBench.printError("warning: \(source):\(line): no readable lat/lon, skipped") }
                    }
                }
                position = max(cursor, position + 1)
            }
        }
        if skipped > 5 { GeofenceBench.printError("warning: \(source): \(skipped) rows skipped in all") }
        return points
    }
}
