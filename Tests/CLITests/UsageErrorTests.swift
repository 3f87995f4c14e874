import TestSupport
import Testing

/// Usage errors name what is wrong and show the usage of the command the
/// user typed, whether argument-parser or the command itself found them.
@Suite("usage errors")
struct UsageErrorTests {
    @Test("a misspelt flag gets a 'did you mean' and the subcommand's usage")
    func misspeltFlag() throws {
        let result = try RepeatSimBinary.run(["replay", "walk.gpx", "--tasks", "tasks.json", "--transitons"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Did you mean '--transitions'?"), "\(result.stderr)")
        #expect(result.stderr.contains("Usage: repeat-sim replay"), "\(result.stderr)")
    }

    @Test("a usage error found while the command runs shows that command's usage, not the root's")
    func runTimeUsageError() throws {
        let folder = temporaryDirectory("repeat-usage")
        let result = try RepeatSimBinary.run(["task", "add", "--title", "!!!", "--every", "2w", "--db", folder + "/t.sqlite"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Error: --id is required when the title has no letters or digits"), "\(result.stderr)")
        #expect(result.stderr.contains("Usage: repeat-sim task add"), "\(result.stderr)")
        #expect(result.stderr.contains("See 'repeat-sim task add --help'"), "\(result.stderr)")
        #expect(!result.stderr.contains("<subcommand>"), "\(result.stderr)")
    }
}
