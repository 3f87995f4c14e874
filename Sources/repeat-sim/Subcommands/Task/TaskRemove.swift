import ArgumentParser

/// `repeat-sim task rm ID`: deletes a task.
struct TaskRemove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove a task with its places and history (the notification log keeps its entries)."
    )

    @Argument(help: "The ids of the tasks to remove.")
    var ids: [String]

    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard !ids.isEmpty else { throw ValidationError("name at least one task id") }
    }

    func run() async throws {
        let database = try store.open()
        for id in ids {
            try database.remove(id: id)
            print("Removed \(id).")
        }
    }
}
