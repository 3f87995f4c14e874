import Foundation
import GeoCore
import Geofencing

/// A 1 Hz random walk in the city box (seed 21, starting at
/// ``ReplayWorkload/start``), written as a feed file in each format Repeat
/// decodes, shaped like ../shared/bench/gen_workload.py's files: NMEA as a
/// GGA and an RMC per fix, GPX 1.1 track points with `ele` and `time`, CSV
/// `t,lat,lon`, and gpsd JSON as `gpspipe -w` logs it (one TPV per fix).
public enum WalkFile {
    /// A feed format.
    public enum Format: String, CaseIterable, Sendable {
        case nmea, gpx, csv, gpsd
    }

    /// The path of the walk of `fixes` fixes in `format`, in the temporary
    /// folder, written on first use (70–150 bytes per fix).
    public static func path(_ format: Format, fixes: Int) throws -> String {
        let path = NSTemporaryDirectory() + "/repeat-bench-walk-\(fixes).\(format.rawValue)"
        if FileManager.default.fileExists(atPath: path) { return path }
        FileManager.default.createFile(atPath: path + ".partial", contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path + ".partial"))
        var text = header(format)
        text.reserveCapacity(1 << 22)
        var walk = GeofenceWorkload(layout: .city, seed: 21)
        for (second, point) in walk.walks(count: fixes, tracks: 1).enumerated() {
            let stamp = RFC3339.format(Timestamp(nanoseconds: (ReplayWorkload.start + Int64(second)) * 1_000_000_000))
            text += line(format, point, stamp: stamp, second: second)
            if text.utf8.count > 1 << 22 {
                try handle.write(contentsOf: Data(text.utf8))
                text.removeAll(keepingCapacity: true)
            }
        }
        if format == .gpx { text += "</trkseg></trk>\n</gpx>\n" }
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        try FileManager.default.moveItem(atPath: path + ".partial", toPath: path)
        return path
    }

    private static func header(_ format: Format) -> String {
        switch format {
        case .nmea: return ""
        case .gpx:
            return """
                <?xml version="1.0" encoding="UTF-8"?>
                <gpx version="1.1" creator="Repeat benchmarks" xmlns="http://www.topografix.com/GPX/1/1">
                <trk><name>walk</name><trkseg>

                """
        case .csv: return "t,lat,lon\n"
        case .gpsd: return #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"# + "\n"
        }
    }

    private static func line(_ format: Format, _ point: Coordinate, stamp: String, second: Int) -> String {
        let lat = String(format: "%.7f", point.latitude)
        let lon = String(format: "%.7f", point.longitude)
        switch format {
        case .nmea:
            let utf8 = Array(stamp.utf8)  // yyyy-mm-ddThh:mm:ssZ
            let hms = String(decoding: utf8[11..<13] + utf8[14..<16] + utf8[17..<19], as: UTF8.self)
            let dmy = String(decoding: utf8[8..<10] + utf8[5..<7] + utf8[2..<4], as: UTF8.self)
            let position = "\(angle(point.latitude, degreeDigits: 2)),N,\(angle(point.longitude, degreeDigits: 3)),E"
            return sentence("GPGGA,\(hms).00,\(position),1,08,0.9,35.0,M,46.9,M,,")
                + sentence("GPRMC,\(hms).00,A,\(position),19.44,90.0,\(dmy),,,A")
        case .gpx:
            return "<trkpt lat=\"\(lat)\" lon=\"\(lon)\"><ele>35.2</ele><time>\(stamp)</time></trkpt>\n"
        case .csv:
            return "\(ReplayWorkload.start + Int64(second)),\(lat),\(lon)\n"
        case .gpsd:
            return #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":""# + stamp
                + #"","lat":\#(lat),"lon":\#(lon),"alt":35.2,"eph":5.3,"speed":10.0,"track":90.0}"# + "\n"
        }
    }

    /// `dddmm.mmmmm` of a positive angle.
    private static func angle(_ degrees: Double, degreeDigits: Int) -> String {
        let whole = Int(degrees)
        let minutes = min((degrees - Double(whole)) * 60, 59.99999)
        return String(format: "%0\(degreeDigits)d%08.5f", whole, minutes)
    }

    /// `$BODY*CS\r\n`.
    private static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0), ^)
        return "$\(body)*\(String(format: "%02X", checksum))\r\n"
    }
}
