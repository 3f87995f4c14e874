import ArgumentParser
import Pipeline
import TaskStore

/// `--places`: name each fix or reminder after the nearest place of the place book.
struct PlaceBookOptions: ParsableArguments {
    @Flag(
        help: ArgumentHelp(
            "Say the nearest place of the place book (`place import`) within --near-within of each line: \"near\" and \"near_m\"."
        ))
    var places = false

    @Option(help: ArgumentHelp("How far a place may be to be named by --places, in metres.", valueName: "metres"))
    var nearWithin: Double = 250

    @Option(
        name: .customLong("db"),
        help: ArgumentHelp("The task database whose place book --places reads (default as for `task`).", valueName: "path"))
    var path: String?

    /// Problems with the values, for `validate()`.
    func problems() -> [String] {
        nearWithin > 0 && nearWithin.isFinite ? [] : ["--near-within must be a positive number of metres"]
    }

    /// The index --places asks for, or `nil` without it.
    /// - Throws: the store's errors (no store yet), or an empty place book.
    func nearestPlaces() throws -> NearestPlaces? {
        guard places else { return nil }
        let book = try TaskDatabase(readingFrom: path ?? TaskDatabase.defaultPath()).places()
        guard !book.isEmpty else {
            throw ValidationError("--places: the place book is empty (`repeat-sim place import FILE` adds places)")
        }
        return NearestPlaces(places: book, within: nearWithin)
    }
}
