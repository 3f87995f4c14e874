/// Paths of the repository's folders, found from this file's own location
/// so that tests run from any working directory.
public enum RepositoryPaths {
    /// The repository root (the folder holding `Package.swift`).
    public static let root: String = {
        // #filePath = <root>/Sources/TestSupport/Locations.swift
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// `Tracks/`: the bundled sample tracks and scenarios.
    public static var tracks: String { root + "/Tracks" }

    /// `../shared/corpus` (or `REPEAT_CORPUS`): the third-party conformance
    /// corpus, when present (see ``SharedCorpus``).
    public static var corpus: String { SharedCorpus.located.path }

    /// The path of a file under `Tracks/`.
    public static func track(_ relativePath: String) -> String { tracks + "/" + relativePath }
}
