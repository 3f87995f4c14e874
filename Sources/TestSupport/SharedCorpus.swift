import Foundation
import Testing

/// Finds `../shared/corpus`, the third-party conformance corpus that sits
/// beside the checkout, and says plainly when it is not there.
///
/// `REPEAT_CORPUS` in the environment overrides the place. Tests that read
/// the corpus are enabled only when it is present
/// (the ``Testing/Trait/needsSharedCorpus`` trait),
/// and one test (`SharedCorpusTests`) fails with ``missingMessage``, so
/// that a missing corpus is one clear failure, not a dozen file errors.
public struct SharedCorpus: Sendable {
    /// The absolute path where the corpus is looked for.
    public let path: String

    /// The corpus where `REPEAT_CORPUS` or, without it, the checkout's
    /// sibling folder says.
    public static let located = SharedCorpus(override: environment("REPEAT_CORPUS"))

    /// The corpus at `override` (resolved against the working directory),
    /// or at `../shared/corpus` beside the repository when `nil`.
    public init(override: String?) {
        let path = override ?? (RepositoryPaths.root + "/../shared/corpus")
        self.path = URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// Whether the corpus is there: its `MANIFEST.tsv` can be read.
    public var isPresent: Bool { FileManager.default.isReadableFile(atPath: path + "/MANIFEST.tsv") }

    /// The one message for a missing corpus: which folder, where, and what to do.
    public var missingMessage: String {
        "../shared/corpus not found at \(path): clone the shared folder beside the checkout (see CONTRIBUTING.md), or point REPEAT_CORPUS at it"
    }

    /// The path of a file under the corpus.
    public func file(_ relativePath: String) -> String { path + "/" + relativePath }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only when ../shared/corpus is present; otherwise it is
    /// skipped with ``SharedCorpus/missingMessage``.
    public static var needsSharedCorpus: Self {
        .enabled(if: SharedCorpus.located.isPresent, Comment(rawValue: SharedCorpus.located.missingMessage))
    }
}
