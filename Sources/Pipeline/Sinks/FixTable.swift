import FeedParsing
import GeoCore

/// The readable `decode` output without `--json`: one aligned row per fix.
enum FixTable {
    static let header =
        pad("time", 30) + "  " + right("latitude", 13) + "  " + right("longitude", 14) + "  " + right("ele", 7) + "  "
        + right("speed", 7) + "  " + right("course", 6) + "  " + right("hdop", 5) + "  " + right("acc", 5) + "  device\n"

    static func row(_ fix: Fix) -> String {
        let time = fix.time.map { RFC3339.format($0) } ?? "-"
        return pad(time, 30) + "  " + number(fix.coordinate.latitude, 9, width: 13) + "  "
            + number(fix.coordinate.longitude, 9, width: 14) + "  " + optional(fix.elevation, 1, width: 7) + "  "
            + optional(fix.speed, 2, width: 7) + "  " + optional(fix.course, 1, width: 6) + "  "
            + optional(fix.hdop, 1, width: 5) + "  " + optional(fix.accuracy, 1, width: 5) + "  "
            + (fix.device ?? "").terminalSafe + "\n"
    }

    static let waypointHeader =
        pad("name", 20) + "  " + right("latitude", 13) + "  " + right("longitude", 14) + "  " + right("ele", 7) + "  time\n"

    static func row(_ waypoint: Waypoint) -> String {
        pad(waypoint.name ?? "-", 20) + "  " + number(waypoint.coordinate.latitude, 9, width: 13) + "  "
            + number(waypoint.coordinate.longitude, 9, width: 14) + "  " + optional(waypoint.elevation, 1, width: 7) + "  "
            + (waypoint.time.map { RFC3339.format($0) } ?? "-") + "\n"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private static func right(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    private static func optional(_ value: Double?, _ decimals: Int, width: Int) -> String {
        guard let value else { return String(repeating: " ", count: width - 1) + "-" }
        return number(value, decimals, width: width)
    }

    /// Fixed-point text without Foundation's `String(format:)`.
    private static func number(_ value: Double, _ decimals: Int, width: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        // Far beyond any real fix (and beyond Int64): as Swift writes it, never a trap.
        guard scaled < 1e15 else { return right(value.isFinite ? String(value) : "-", width) }
        let whole = Int64(scaled / scale)
        let fraction = Int64(scaled - Double(whole) * scale)
        var text = (value < 0 && scaled != 0 ? "-" : "") + String(whole)
        if decimals > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: decimals - digits.count) + digits
        }
        return text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
