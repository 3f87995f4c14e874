import FeedParsing
import GeoCore

/// The readable `decode` output without `--json`: one aligned row per fix.
enum FixTable {
    /// The names over the columns of a fix's row.
    static let header = text { bytes in
        bytes.appendColumn("time", paddedTo: Width.time)
        let columns = [
            ("latitude", Width.latitude), ("longitude", Width.longitude), ("ele", Width.elevation), ("speed", Width.speed),
            ("course", Width.course), ("hdop", Width.hdop), ("acc", Width.accuracy),
        ]
        for (name, width) in columns {
            bytes.append(contentsOf: "  ".utf8)
            bytes.appendColumn(name, rightAlignedTo: width)
        }
        bytes.append(contentsOf: "  device\n".utf8)
    }

    /// Appends the row of `fix`, its newline included.
    static func append(_ fix: Fix, to bytes: inout [UInt8]) {
        appendTime(fix.time, width: Width.time, to: &bytes)
        bytes.append(contentsOf: "  ".utf8)
        bytes.appendFixedPoint(fix.coordinate.latitude, decimals: 9, width: Width.latitude)
        bytes.append(contentsOf: "  ".utf8)
        bytes.appendFixedPoint(fix.coordinate.longitude, decimals: 9, width: Width.longitude)
        // Written out, not looped over: an array of the columns would be
        // made for every row.
        appendOptional(fix.elevation, decimals: 1, width: Width.elevation, to: &bytes)
        appendOptional(fix.speed, decimals: 2, width: Width.speed, to: &bytes)
        appendOptional(fix.course, decimals: 1, width: Width.course, to: &bytes)
        appendOptional(fix.hdop, decimals: 1, width: Width.hdop, to: &bytes)
        appendOptional(fix.accuracy, decimals: 1, width: Width.accuracy, to: &bytes)
        bytes.append(contentsOf: "  ".utf8)
        bytes.appendTerminalSafe(fix.device ?? "")
        bytes.append(UInt8(ascii: "\n"))
    }

    /// The names over the columns of a waypoint's row.
    static let waypointHeader = text { bytes in
        bytes.appendColumn("name", paddedTo: Width.name)
        for (name, width) in [("latitude", Width.latitude), ("longitude", Width.longitude), ("ele", Width.elevation)] {
            bytes.append(contentsOf: "  ".utf8)
            bytes.appendColumn(name, rightAlignedTo: width)
        }
        bytes.append(contentsOf: "  time\n".utf8)
    }

    /// Appends the row of `waypoint`, its newline included; the name made
    /// safe for a terminal.
    static func append(_ waypoint: Waypoint, to bytes: inout [UInt8]) {
        bytes.appendColumn((waypoint.name ?? "-").terminalSafe, paddedTo: Width.name)
        bytes.append(contentsOf: "  ".utf8)
        bytes.appendFixedPoint(waypoint.coordinate.latitude, decimals: 9, width: Width.latitude)
        bytes.append(contentsOf: "  ".utf8)
        bytes.appendFixedPoint(waypoint.coordinate.longitude, decimals: 9, width: Width.longitude)
        appendOptional(waypoint.elevation, decimals: 1, width: Width.elevation, to: &bytes)
        bytes.append(contentsOf: "  ".utf8)
        appendTime(waypoint.time, width: 0, to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// The columns' widths, the same in the headers and the rows.
    private enum Width {
        static let time = 30, name = 20, latitude = 13, longitude = 14, elevation = 7, speed = 7, course = 6
        static let hdop = 5, accuracy = 5
    }

    /// The time in UTC, or `-`, padded to `width`.
    private static func appendTime(_ time: Timestamp?, width: Int, to bytes: inout [UInt8]) {
        let start = bytes.count
        if let time { RFC3339.append(time, to: &bytes) } else { bytes.append(UInt8(ascii: "-")) }
        // ASCII: as many characters as bytes.
        bytes.appendSpaces(width - (bytes.count - start))
    }

    /// Two spaces, then the value in fixed point, or `-`, right-aligned to `width`.
    private static func appendOptional(_ value: Double?, decimals: Int, width: Int, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: "  ".utf8)
        guard let value else { return bytes.appendColumn("-", rightAlignedTo: width) }
        bytes.appendFixedPoint(value, decimals: decimals, width: width)
    }

    /// The text that `write` appends to nothing.
    private static func text(_ write: (inout [UInt8]) -> Void) -> String {
        var bytes: [UInt8] = []
        write(&bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
