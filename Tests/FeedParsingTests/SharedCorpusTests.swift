import Foundation
import TestSupport
import Testing

/// The corpus tests are skipped when ../shared/corpus is missing; this is
/// the one test that fails then, with a message that says what to do.
@Suite("../shared/corpus")
struct SharedCorpusTests {
    @Test("the shared corpus is beside the checkout (or at REPEAT_CORPUS)")
    func present() {
        #expect(SharedCorpus.located.isPresent, Comment(rawValue: SharedCorpus.located.missingMessage))
    }

    @Test("a missing corpus is named with its absolute path and what to do")
    func missingMessage() {
        let missing = SharedCorpus(override: "/nonexistent/shared/../corpus")
        #expect(!missing.isPresent)
        #expect(
            missing.missingMessage
                == "../shared/corpus not found at /nonexistent/corpus: clone the shared folder beside the checkout (see CONTRIBUTING.md), or point REPEAT_CORPUS at it"
        )
    }

    @Test("without an override the corpus is ../shared/corpus beside the repository")
    func defaultPlace() {
        let sibling = URL(fileURLWithPath: RepositoryPaths.root).deletingLastPathComponent()
            .appendingPathComponent("shared/corpus").standardizedFileURL.path
        #expect(SharedCorpus(override: nil).path == sibling)
        #expect(SharedCorpus(override: nil).file("MANIFEST.tsv") == sibling + "/MANIFEST.tsv")
    }
}
