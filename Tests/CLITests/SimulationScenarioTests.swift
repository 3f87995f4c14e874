import Foundation
import TestSupport
import Testing

/// "With my life as it is, would my 10–14-week cat medicine reminder have
/// fired at the pharmacy?": four months of a simulated routine
/// (`Tracks/simulate/routine.json`: work on weekdays, the pharmacy every
/// 10–20 days, urban GPS error) replayed against the task. The golden is
/// `Tracks/simulate/expected.jsonl`; `RECORD_TRACKS=1` re-records it.
@Suite("a simulated routine against a recurring task")
struct SimulationScenarioTests {
    @Test("the pharmacy visits remind once the 10-week window is near, and the due fires on its day")
    func routineAgainstTheCatMedicineTask() throws {
        let folder = temporaryDirectory("repeat-routine")
        let feed = folder + "/routine.nmea"
        let generated = try RepeatSimBinary.run([
            "generate", "--itinerary", RepositoryPaths.track("simulate/routine.json"), "--days", "120",
            "--interval", "60s", "--environment", "urban", "--seed", "7", "--out", feed,
        ])
        #expect(generated.status == 0, "\(generated.stderr)")
        let replay = try RepeatSimBinary.run([
            "replay", feed, "--tasks", RepositoryPaths.track("simulate/tasks.json"), "--explain", "--json",
        ])
        #expect(replay.status == 0, "\(replay.stderr)")
        let lines = replay.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let locations = lines.filter { $0["kind"] as? String == "location" }.compactMap { $0["time"] as? String }
        // The window opens ten weeks after the start (2025-03-17); before it
        // the visits are not due; the first reminder is the first visit after.
        #expect(locations.first.map { $0 >= "2025-03-16T08:00:00Z" } == true, "\(locations)")
        #expect(lines.contains { $0["kind"] as? String == "suppressed" && $0["reason"] as? String == "not-due" })
        #expect(lines.contains { $0["kind"] as? String == "due" && ($0["time"] as? String)?.hasPrefix("2025-04-14") == true })
        let golden = RepositoryPaths.track("simulate/expected.jsonl")
        try Golden.expect(replay.stdout, matches: golden, suite: "SimulationScenarioTests")
    }
}
