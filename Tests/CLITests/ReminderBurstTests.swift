import Foundation
import TestSupport
import Testing

/// The clock's start with thousands of overdue tasks: the burst of due
/// reminders is handed to the output a few thousand at a time, which must
/// change nothing that is printed, whatever the threads or shards.
@Suite("replay: a burst of due reminders at the clock's start")
struct ReminderBurstTests {
    static let overdue = 9_000

    /// A feed of 3 devices around one place, and `overdue` one-off tasks
    /// past due long before it, the place naming one of them.
    static func workload(in folder: String) throws -> [String] {
        var rows = "time,lat,lon,device\n"
        for step in 0..<6 {
            for device in 0..<3 {
                let (lat, lon) = (52.5 + 0.001 * Double(step), 13.4 + 0.01 * Double(device))
                rows += "\(1_700_000_000 + 60 * step),\(lat),\(lon),car-\(device)\n"
            }
        }
        try rows.write(toFile: folder + "/feed.csv", atomically: true, encoding: .utf8)
        try "id,lat,lon,radius,task\nshop,52.503,13.41,150,task-7\n".write(
            toFile: folder + "/places.csv", atomically: true, encoding: .utf8)
        let tasks = (0..<overdue).map { index in
            // Due on different days, so that the order of the tasks (their
            // positions), not of their due times, is the order of the burst.
            let day = 1 + (index * 7) % 28
            return #"{"id": "task-\#(index)", "title": "Task \#(index)", "start": "2023-01-01T00:00:00Z", "#
                + #""schedule": {"once": {"due": "2023-02-\#(day < 10 ? "0" : "")\#(day)T12:00:00Z"}}}"#
        }
        try #"{"tasks": [\#(tasks.joined(separator: ",\n"))]}"#.write(
            toFile: folder + "/tasks.json", atomically: true, encoding: .utf8)
        return [folder + "/feed.csv", "--regions", folder + "/places.csv", "--tasks", folder + "/tasks.json"]
    }

    /// The `task` of each line of `stdout` whose kind or reason is `kind`.
    static func tasks(_ stdout: String, _ kind: String) -> [String] {
        stdout.split(separator: "\n").compactMap { line in
            guard line.contains(#""kind":"\#(kind)""#) || line.contains(#""reason":"\#(kind)""#),
                let range = line.range(of: #""task":""#)
            else { return nil }
            return String(line[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    @Test("9 000 overdue tasks: every due in the tasks' order at the first fix; threads and shards print the same bytes")
    func burstInOrder() throws {
        let folder = temporaryDirectory("repeat-burst")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = try Self.workload(in: folder)
        let runs = ParallelReplayTests()
        let reference = try runs.replay(arguments, ["--jobs", "1"])
        let order = (0..<Self.overdue).map { "task-\($0)" }
        #expect(Self.tasks(reference.stdout, "due") == order)
        #expect(reference.stdout.split(separator: "\n").prefix(Self.overdue).allSatisfy { $0.contains("2023-11-14T22:13:20Z") })
        // And the place's task reminds on arrival.
        #expect(Self.tasks(reference.stdout, "location") == ["task-7"])
        #expect(reference.summary.contains("9001 reminders (due 9000, location 1)"), "\(reference.summary)")
        try runs.expectSameAsOneThread(arguments, reference: reference)
    }

    @Test("a pending limit of 5 000 counts across the parts of the burst: 5 000 due, then 4 000 suppressed")
    func pendingLimitAcrossParts() throws {
        let folder = temporaryDirectory("repeat-burst")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = try Self.workload(in: folder) + ["--pending-limit", "5000"]
        let runs = ParallelReplayTests()
        let reference = try runs.replay(arguments, ["--jobs", "1"])
        let order = (0..<Self.overdue).map { "task-\($0)" }
        #expect(Self.tasks(reference.stdout, "due") == Array(order.prefix(5_000)))
        #expect(Self.tasks(reference.stdout, "pending-limit") == Array(order.dropFirst(5_000)))
        let threaded = try runs.replay(arguments, ["--jobs", "2"])
        #expect(threaded.stdout == reference.stdout)
        #expect(threaded.summary == reference.summary)
    }
}
