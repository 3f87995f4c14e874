import ArgumentParser
import Foundation
import GeoCore
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
            3 an evaluate or bench expectation or baseline failed.
            """,
        version: RepeatSim.version,
        subcommands: [
            TaskCommand.self, PlaceCommand.self, DecodeCommand.self, ReplayCommand.self, LiveCommand.self, GenerateCommand.self,
            EvaluateCommand.self,
            BenchCommand.self, MergeCommand.self,
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
            let arguments = Array(CommandLine.arguments.dropFirst())
            if let misspelt = misspeltSubcommand(in: arguments) ?? unknownOption(in: arguments)
                ?? negativeValue(in: arguments, error: message(for: error))
            {
                Console.write(misspelt)
                Foundation.exit(1)
            }
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
                if let unknown = unknownOption(in: Array(CommandLine.arguments.dropFirst())) {
                    Console.write(unknown)
                    Foundation.exit(1)
                }
                Console.write(usageError(message(for: error), for: type(of: command)))
                Foundation.exit(1)
            }
            exit(withError: error)
        }
    }

    /// `Error: MESSAGE`, then `command`'s usage and where its help is.
    static func usageError(_ message: String, for command: any ParsableCommand.Type) -> String {
        let usage = usageString(for: command)
        let path = usage.split(separator: " ").prefix { !"<[-".contains($0.first ?? "<") }.joined(separator: " ")
        return "Error: \(message)\nUsage: \(usage)\n  See '\(path) --help' for more information."
    }

    /// The (sub)command the words of `arguments` name, and the first word
    /// that names none (`nil` when every word was a command's name).
    static func command(in arguments: [String]) -> (command: any ParsableCommand.Type, rest: String?) {
        var command: any ParsableCommand.Type = RepeatSim.self
        for word in arguments where !word.hasPrefix("-") {
            guard let next = command.configuration.subcommands.first(where: { $0.configuration.commandName == word }) else {
                return (command, word)
            }
            command = next
        }
        return (command, nil)
    }

    /// For a command line with a `--flag` (or a `-f`) its command does not
    /// have: the error argument-parser gives for it, with the nearest flag.
    /// Checked before any other usage error, because ArgumentParser
    /// validates the options it knows (`--regions is required`, or a ROUTE
    /// and an --itinerary given together when `-o out.nmea` was meant as
    /// `--out`) before it reports the unknown one.
    static func unknownOption(in arguments: [String]) -> String? {
        let command = command(in: arguments).command
        let help = RepeatSim.helpMessage(for: command, includeHidden: true, columns: 10_000)
        var known: Set<String> = ["--help", "--version", "-h"]
        // The flags that begin the help's option lines, two spaces in (`  -h,
        // --help`, `  --regions <file>`), not those its prose or examples
        // name (merge's help shows replay's --json).
        for line in help.split(separator: "\n") where line.hasPrefix("  -") {
            let flags = line.split(separator: " ", omittingEmptySubsequences: true).prefix { $0.hasPrefix("-") }
            for flag in flags { known.insert(String(flag.prefix { $0.isLetter || $0.isNumber || $0 == "-" })) }
        }
        let long = known.filter { $0.hasPrefix("--") }.sorted()
        for word in arguments.prefix(while: { $0 != "--" }) {
            let name = String(word.prefix { $0 != "=" })
            guard !known.contains(name) else { continue }
            let hint: String
            if word.hasPrefix("--"), word.count > 2 {
                let nearest = Spelling.suggestion(for: name, in: long, maximumDistance: max(2, name.count / 3))
                hint = nearest.map { " Did you mean '\($0)'?" } ?? ""
            } else if word.hasPrefix("-"), word.dropFirst().first?.isLetter == true {
                // A short flag (never a negative number, a value of its own):
                // the long ones its letter begins, when there are a few.
                let starting = long.filter { $0.dropFirst(2).first == word.dropFirst().first }.map { "'\($0)'" }
                let choices = starting.dropLast().joined(separator: ", ") + (starting.count > 1 ? " or " : "")
                hint = (1...3).contains(starting.count) ? " Did you mean \(choices + starting[starting.count - 1])?" : ""
            } else {
                continue
            }
            return usageError("Unknown option '\(name)'.\(hint)", for: command)
        }
        return nil
    }

    /// For ArgumentParser's `Missing value for '--stop <duration>'` when the
    /// word after the flag is a negative number (`--stop -1s`), which it
    /// takes for a flag: an error that says what was given. The flags
    /// whose values may be negative (coordinates, a UTC offset) take them.
    static func negativeValue(in arguments: [String], error: String) -> String? {
        let prefix = "Missing value for '"
        guard error.hasPrefix(prefix) else { return nil }
        let flag = String(error.dropFirst(prefix.count).prefix { $0 != " " && $0 != "'" })
        guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
        let value = arguments[index + 1]
        guard value.count > 1, value.hasPrefix("-"), value.dropFirst().first.map({ $0.isNumber || $0 == "." }) == true
        else { return nil }
        return usageError("'\(flag)' takes no negative value, and '\(value)' is one.", for: command(in: arguments).command)
    }

    /// For a command line whose command word is none of the subcommands
    /// (`repeat-sim decod x`, `repeat-sim task lst`): an error naming it,
    /// the nearest subcommand and the usage; `nil` when the words are fine.
    static func misspeltSubcommand(in arguments: [String]) -> String? {
        let (command, word) = command(in: arguments)
        let names = command.configuration.subcommands.compactMap { $0.configuration.commandName }
        guard let word, !names.isEmpty else { return nil }
        let nearest = Spelling.suggestion(for: word, in: names, maximumDistance: max(1, word.count / 3))
        let hint = nearest.map { "Did you mean '\($0)'?" } ?? "The commands: \(names.joined(separator: ", "))."
        return usageError("unknown command '\(word)'. \(hint)", for: command)
    }
}
