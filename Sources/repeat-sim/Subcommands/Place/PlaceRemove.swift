import ArgumentParser
import Pipeline
import TaskStore

/// `repeat-sim place rm NAME`: removes places from the book.
struct PlaceRemove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove places from the place book (tasks keep the places they copied)."
    )

    @Argument(help: "The names of the places to remove (or enough of each to tell it apart).")
    var names: [String]

    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard !names.isEmpty else { throw ValidationError("name at least one place") }
    }

    func run() async throws {
        let database = try store.open()
        let book = try database.places()
        for name in names {
            let place = try book.place(named: name)
            try database.removePlace(named: place.name)
            print("Removed \(place.name.terminalSafe).")
        }
    }
}

extension [NamedPlace] {
    /// The one place `name` means.
    /// - Throws: ``PlaceLookupError`` listing the candidates or the nearest names.
    func place(named name: String) throws -> NamedPlace {
        let match = NamedPlace.lookUp(name, in: self)
        guard case .found(let place) = match else { throw PlaceLookupError(name: name, match: match) }
        return place
    }
}
