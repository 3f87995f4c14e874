import GeoCore
import Synchronization

/// Arrays of fixes that the stages hand back once they are done with a
/// read, for the decoding thread to fill again (``FeedReadAhead``).
///
/// A read's fixes are some megabytes: a new array each read meant fresh
/// pages, each one a page fault that cleared it (about 4 µs here), 2 000
/// to 6 000 more of them in a run of a million fixes. A kept array's pages
/// are already the process's. At most `limit` arrays are kept.
final class FixArrayPool: Sendable {
    private let spare = Mutex<[[Fix]]>([])
    private let limit: Int

    init(limit: Int = 4) { self.limit = limit }

    /// An empty array with room for `capacity` fixes: a kept one when
    /// there is one.
    func take(capacity: Int) -> [Fix] {
        var fixes = spare.withLock { $0.popLast() } ?? []
        fixes.removeAll(keepingCapacity: true)
        fixes.reserveCapacity(capacity)
        return fixes
    }

    /// Keeps `fixes` for a later ``take(capacity:)``, unless `limit` are kept.
    func recycle(_ fixes: [Fix]) {
        spare.withLock { if $0.count < limit { $0.append(fixes) } }
    }
}

/// A read's fixes, shared by the slices the workers take of it, handed
/// back to `pool` when the last slice lets go of them.
final class SharedFixes: Sendable {
    let fixes: [Fix]
    private let pool: FixArrayPool?

    init(_ fixes: [Fix], returningTo pool: FixArrayPool?) {
        self.fixes = fixes
        self.pool = pool
    }

    deinit { pool?.recycle(fixes) }
}
