import Foundation
import Synchronization
import Testing

@testable import Pipeline

/// The hand-over between a feed's decoding thread and the run: a wait
/// that lasts runs the caller's `whileWaiting` (a pipe with nothing more
/// yet has the workers' reads handed on), once, and never when an item
/// is there.
@Suite("hand-off queue")
struct HandOffQueueTests {
    @Test("an item already there is taken without running whileWaiting")
    func itemThere() {
        let queue = HandOffQueue<Int>(depth: 2)
        #expect(queue.push(1))
        var waited = 0
        #expect(queue.pop(patience: 0.001, whileWaiting: { waited += 1 }) == 1)
        #expect(waited == 0)
    }

    @Test("a wait that lasts runs whileWaiting once, then takes what comes after it")
    func waitThatLasts() {
        let queue = HandOffQueue<Int>(depth: 2)
        // Were whileWaiting never run, the queue ends after a while (on a
        // thread of its own: the test's pool may be blocked): the test fails
        // rather than hangs.
        Thread {
            Thread.sleep(forTimeInterval: 30)
            queue.finish()
        }.start()
        let waited = Atomic(0)
        let item = queue.pop(
            patience: 0.001,
            whileWaiting: {
                waited.add(1, ordering: .relaxed)
                // The item comes only once the caller has been told it waits.
                Thread { _ = queue.push(7) }.start()
            })
        #expect(item == 7)
        #expect(waited.load(ordering: .relaxed) == 1)
    }

    @Test("the end of the items while the caller waits is nil, after whileWaiting")
    func endWhileWaiting() {
        let queue = HandOffQueue<Int>(depth: 2)
        Thread {
            Thread.sleep(forTimeInterval: 30)
            queue.finish()
        }.start()
        var waited = 0
        let item = queue.pop(
            patience: 0.001,
            whileWaiting: {
                waited += 1
                Thread { queue.finish() }.start()
            })
        #expect(item == nil)
        #expect(waited == 1)
        #expect(queue.pop(patience: 0.001, whileWaiting: { waited += 1 }) == nil, "finished: no wait")
        #expect(waited == 1)
    }
}
