import ArgumentParser
import Foundation
import Pipeline

/// The `repeat-sim` command: a location-feed simulator and geofence
/// evaluation tool for flexible recurring tasks.
@main
struct RepeatSim: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repeat-sim",
        abstract: "Replay and simulate GPS feeds against places and flexible recurring tasks.",
        discussion: """
            Repeat answers one question: given where someone went (a GPS feed) and
            what they have to do (tasks with places and flexible repeat rules),
            which reminders fire, when, and why.

            Exit status: 0 ok, 1 usage error or failure, 2 bad input under --strict,
            3 a check/evaluate expectation failed.
            """,
        version: RepeatSim.version,
        subcommands: [
            TaskCommand.self, DecodeCommand.self, ReplayCommand.self, LiveCommand.self, GenerateCommand.self,
            EvaluateCommand.self,
            BenchCommand.self,
        ]
    )

    /// The version `--version` prints.
    static let version = "0.6.0"

    /// Runs the command line, mapping usage errors to exit status 1 as
    /// DESIGN.md's contract says (ArgumentParser would use 64).
    static func main() async {
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            if exitCode(for: error) == .validationFailure {
                Console.write(fullMessage(for: error))
                Foundation.exit(1)
            }
            exit(withError: error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            // A usage error found while running: the subcommand's usage.
            if exitCode(for: error) == .validationFailure {
                let usage = usageString(for: type(of: command))
                let path = usage.split(separator: " ").prefix { !"<[-".contains($0.first ?? "<") }.joined(separator: " ")
                Console.write("Error: \(message(for: error))\nUsage: \(usage)\n  See '\(path) --help' for more information.")
                Foundation.exit(1)
            }
            exit(withError: error)
        }
    }
}
