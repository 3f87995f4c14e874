import Foundation
import TestSupport
import Testing

/// Snapshots of what people read: every command's `--help`, the replay
/// table and the task list. A change to any of them shows up in review as
/// a diff of `Tests/CLITests/Snapshots/`; re-record with
/// `RECORD_TRACKS=1 swift test --filter SnapshotTests`, like the goldens.
@Suite("snapshots of --help and the tables")
struct SnapshotTests {
    static let folder = RepositoryPaths.root + "/Tests/CLITests/Snapshots"
    /// Help wraps at the terminal's width; snapshots are taken at 80 columns.
    static let environment = ["COLUMNS": "80", "NO_COLOR": "1"]

    static let commands: [[String]] = [
        [], ["decode"], ["replay"], ["live"], ["generate"], ["evaluate"], ["bench"], ["merge"], ["task"], ["task", "import"],
        ["task", "export"],
        ["task", "add"],
        ["task", "edit"],
        ["task", "done"], ["task", "undo"], ["task", "rm"], ["task", "history"], ["task", "show"], ["task", "list"], ["place"],
        ["place", "import"], ["place", "list"], ["place", "rm"],
    ]

    @Test("--help of every command", arguments: commands)
    func help(command: [String]) throws {
        let result = try RepeatSimBinary.run(command + ["--help"], environment: Self.environment)
        #expect(result.status == 0)
        try compare(result.stdout, "help-" + (["repeat-sim"] + command).joined(separator: "-") + ".txt")
    }

    @Test("the replay table, with suppressions and transitions")
    func replayTable() throws {
        let result = try RepeatSimBinary.run(
            [
                "replay", RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx"),
                "--regions", RepositoryPaths.track("visnjan-errands/places.csv"),
                "--tasks", RepositoryPaths.track("visnjan-errands/tasks.json"), "--monitor-limit", "2", "--explain",
                "--transitions",
            ], environment: Self.environment)
        #expect(result.status == 0, "\(result.stderr)")
        try compare(result.stdout, "replay-visnjan-errands.txt")
    }

    @Test("the task list at a fixed moment")
    func taskList() throws {
        let db = temporaryDirectory("repeat-snapshot") + "/tasks.sqlite"
        let imported = try RepeatSimBinary.run(
            ["task", "import", RepositoryPaths.track("visnjan-errands/tasks.json"), "--db", db], environment: Self.environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        let list = try RepeatSimBinary.run(
            ["task", "list", "--db", db, "--at", "2020-12-18T06:20:00Z"], environment: Self.environment)
        #expect(list.status == 0, "\(list.stderr)")
        try compare(list.stdout, "task-list-visnjan-errands.txt")
    }

    private func compare(_ actual: String, _ name: String) throws {
        let path = Self.folder + "/" + name
        try Golden.expect(actual, matches: path, suite: "SnapshotTests")
    }
}
