import Foundation
import GeoCore
import Geofencing
import Recurrence

/// The end-to-end replay workload of the pipeline issue, shaped like
/// `Scripts/make-replay-workload.py` over ../shared/bench's files: a 1 Hz
/// random walk in the city box written as NMEA (a GGA and an RMC per fix),
/// 10 000 regions of which every tenth belongs to one of 1 000 tasks with
/// every schedule kind, starting in the weeks before the walk.
public enum ReplayWorkload {
    /// The walk's first fix: 2023-11-14T22:13:20Z, as gen_workload.py.
    public static let start: Int64 = 1_700_000_000

    /// `count` regions in the city box; region `i` with `i % 10 == 0`
    /// belongs to task `task-(i / 10 % tasks)`.
    public static func regions(count: Int, tasks: Int) -> [Region] {
        var workload = GeofenceWorkload(box: .city, seed: 11)
        return workload.regions(count: count).enumerated().map { index, shape in
            Region(id: "r\(index)", shape: shape, task: index % 10 == 0 ? "task-\(index / 10 % tasks)" : nil)
        }
    }

    /// `count` tasks: flexible, fixed, weekday and short flexible schedules
    /// in turn, started 0–21 days before the walk, with a few completions.
    public static func tasks(count: Int) -> [RecurringTask] {
        var random = GeofenceWorkload(box: .city, seed: 5)
        let walkStart = Date(timeIntervalSince1970: TimeInterval(start))
        return (0..<count).map { index in
            let started = walkStart.addingTimeInterval(-random.uniform(0, 21 * 86_400))
            let schedule: Schedule
            switch index % 4 {
            case 0: schedule = .afterCompletion(min: .init(2, .days), max: .init(4, .days))
            case 1: schedule = .fixed(every: .init(2, .days))
            case 2: schedule = .weekdays([.monday, .thursday], at: TimeOfDay(hour: 18, minute: 0))
            default: schedule = .afterCompletion(min: .init(12, .hours), max: .init(36, .hours))
            }
            let completions = (0..<Int(random.uniform(0, 4))).map { _ in started.addingTimeInterval(random.uniform(6, 336) * 3_600) }
            return RecurringTask(
                id: "task-\(index)", title: "Errand \(index)", timeZone: TimeZone(identifier: "Europe/Berlin")!,
                start: started, schedule: schedule, lead: .init(6, .hours), completions: completions.sorted())
        }
    }

    /// The path of an NMEA file of `fixes` fixes in the temporary folder,
    /// written on first use (about 145 bytes per fix).
    public static func nmeaFile(fixes: Int) throws -> String {
        let path = NSTemporaryDirectory() + "/repeat-bench-walk-\(fixes).nmea"
        if FileManager.default.fileExists(atPath: path) { return path }
        var walk = GeofenceWorkload(box: .city, seed: 21)
        var text = ""
        text.reserveCapacity(1 << 22)
        FileManager.default.createFile(atPath: path + ".partial", contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path + ".partial"))
        for (second, point) in walk.walk(count: fixes).enumerated() {
            let stamp = RFC3339.format(Timestamp(nanoseconds: (start + Int64(second)) * 1_000_000_000))
            let utf8 = Array(stamp.utf8)  // yyyy-mm-ddThh:mm:ssZ
            let hms = String(decoding: utf8[11..<13] + utf8[14..<16] + utf8[17..<19], as: UTF8.self)
            let dmy = String(decoding: utf8[8..<10] + utf8[5..<7] + utf8[2..<4], as: UTF8.self)
            let position = "\(angle(point.latitude, degreeDigits: 2)),N,\(angle(point.longitude, degreeDigits: 3)),E"
            text += sentence("GPGGA,\(hms).00,\(position),1,08,0.9,35.0,M,46.9,M,,")
            text += sentence("GPRMC,\(hms).00,A,\(position),19.44,90.0,\(dmy),,,A")
            if text.utf8.count > 1 << 22 {
                try handle.write(contentsOf: Data(text.utf8))
                text.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        try FileManager.default.moveItem(atPath: path + ".partial", toPath: path)
        return path
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
