import ArgumentParser

/// The `repeat-sim` command: a location-feed simulator and geofence
/// evaluation tool for flexible recurring tasks.
@main
struct RepeatSim: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repeat-sim",
        abstract: "Replay GPS feeds against places and flexible recurring tasks.",
        discussion: """
            Repeat answers one question: given where someone went (a GPS feed) and what they
            have to do (tasks with places and flexible repeat rules), which reminders fire,
            when, and why.
            """,
        subcommands: [BenchCommand.self]
    )
}
