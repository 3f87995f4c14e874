import Foundation
import TestSupport
import Testing

/// `repeat-sim task export`: the store's tasks as the tasks file that
/// `task import` and `replay --tasks` read.
@Suite("repeat-sim task export")
struct TaskExportTests {
    @Test(
        "a scenario's tasks imported and exported replay as the file itself; exported again, the same bytes",
        arguments: ScenarioTests.scenarios)
    func roundTrip(scenario: ScenarioTests.Scenario) throws {
        let folder = temporaryDirectory("repeat-export")
        let tasksIndex = try #require(scenario.arguments.firstIndex(of: "--tasks")) + 1
        let original = RepositoryPaths.track(String(scenario.arguments[tasksIndex].dropFirst()))
        let imported = try RepeatSimBinary.run(["task", "import", original, "--db", folder + "/a.sqlite"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let exported = try RepeatSimBinary.run(["task", "export", "--db", folder + "/a.sqlite"])
        #expect(exported.status == 0, "\(exported.stderr)")
        try exported.stdout.write(toFile: folder + "/exported.json", atomically: true, encoding: .utf8)

        var arguments = scenario.arguments.map { $0.hasPrefix("@") ? RepositoryPaths.track(String($0.dropFirst())) : $0 }
        func replay() throws -> CommandResult {
            try RepeatSimBinary.run(["replay"] + arguments + ["--json", "--explain", "--transitions"])
        }
        let fromFile = try replay()
        arguments[tasksIndex] = folder + "/exported.json"
        let fromExport = try replay()
        #expect(fromFile.status == 0 && fromExport.status == 0, "\(fromExport.stderr)")
        #expect(fromExport.stdout == fromFile.stdout)

        let again = try RepeatSimBinary.run(["task", "import", folder + "/exported.json", "--db", folder + "/b.sqlite"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try RepeatSimBinary.run(["task", "export", "--db", folder + "/b.sqlite"]).stdout == exported.stdout)
    }

    @Test("every field a task can have comes back: notes with a newline and quotes, assignee, end, weekdays, places")
    func everyField() throws {
        let folder = temporaryDirectory("repeat-export-fields")
        let db = ["--db", folder + "/a.sqlite"]
        let add = try RepeatSimBinary.run(
            [
                "task", "add", "--title", #"Gym, "legs""#, "--list", "Health", "--notes", "bring\n\"shoes\"",
                "--assignee", "phone", "--time-zone", "Europe/Berlin", "--weekdays", "mon,fri", "--at-time", "18:30",
                "--start", "2025-01-06T09:00", "--end", "2026-01-01", "--lead", "2h", "--at-place", "52.5,13.4",
                "--radius", "80", "--place-name", "Gym Nord", "--at-place", "-33.9,151.2", "--last-done",
                "2025-01-03T18:45:00.250+01:00",
            ] + db)
        #expect(add.status == 0, "\(add.stderr)")
        let exported = try RepeatSimBinary.run(["task", "export"] + db)
        try exported.stdout.write(toFile: folder + "/gym.json", atomically: true, encoding: .utf8)
        #expect(
            exported.stdout.contains(
                #"{"id":"gym-legs","title":"Gym, \"legs\"","list":"Health","notes":"bring\n\"shoes\"","assignee":"phone","#
                    + #""timeZone":"Europe/Berlin","start":"2025-01-06T08:00:00Z","end":"2025-12-31T23:00:00Z","#
                    + #""schedule":{"weekdays":{"days":["mon","fri"],"at":"18:30"}},"lead":"2h","#
                    + #""locations":[{"name":"Gym Nord","lat":52.5,"lon":13.4,"radius":80.0},"#
                    + #"{"name":"Place 2","lat":-33.9,"lon":151.2,"radius":100.0}],"completions":["2025-01-03T17:45:00.250Z"]}"#),
            "\(exported.stdout)")
        let other = ["--db", folder + "/b.sqlite"]
        #expect(try RepeatSimBinary.run(["task", "import", folder + "/gym.json"] + other).status == 0)
        for command in [["show", "gym-legs", "--json", "--at", "2025-03-01T12:00:00Z"], ["history", "gym-legs", "--json"]] {
            let first = try RepeatSimBinary.run(["task"] + command + db)
            #expect(first.stdout == (try RepeatSimBinary.run(["task"] + command + other)).stdout, "\(command)")
        }
        // A list's tasks alone; a store without tasks is a file without tasks, which imports.
        let list = try RepeatSimBinary.run(["task", "export", "--list", "health"] + other)
        #expect(list.stdout.hasPrefix("{\"tasks\": [\n  {\"id\":\"gym-legs\""), "\(list.stdout)")
        #expect(try RepeatSimBinary.run(["task", "rm", "gym-legs"] + other).status == 0)
        let none = try RepeatSimBinary.run(["task", "export"] + other)
        #expect(none.stdout == "{\"tasks\": [\n]}\n")
        try none.stdout.write(toFile: folder + "/none.json", atomically: true, encoding: .utf8)
        #expect(try RepeatSimBinary.run(["task", "import", folder + "/none.json"] + other).stdout == "Imported 0 tasks.\n")
    }

    @Test("a task's zone goes out by its IANA name: UTC, Etc/GMT-2 for a time given at +02:00; shown as UTC+02:00")
    func zoneNames() throws {
        let folder = temporaryDirectory("repeat-export-zones")
        let db = ["--db", folder + "/a.sqlite"]
        for (title, start) in [("Plain", "2025-01-06T07:00"), ("Zulu", "2025-01-06T07:00Z"), ("East", "2025-01-06T07:00+02:00")] {
            let add = try RepeatSimBinary.run(["task", "add", "--title", title, "--every", "1d", "--start", start] + db)
            #expect(add.status == 0, "\(add.stderr)")
        }
        let exported = try RepeatSimBinary.run(["task", "export"] + db).stdout
        #expect(exported.components(separatedBy: #""timeZone":"UTC""#).count == 3, "\(exported)")
        #expect(exported.contains(#""timeZone":"Etc/GMT-2","start":"2025-01-06T05:00:00Z""#), "\(exported)")
        let show = try RepeatSimBinary.run(["task", "show", "east"] + db).stdout
        #expect(show.contains("zone UTC+02:00\n") && show.contains("start      2025-01-06 07:00 +02:00"), "\(show)")
        #expect(try RepeatSimBinary.run(["task", "show", "plain"] + db).stdout.contains("zone UTC\n"))
    }
}
