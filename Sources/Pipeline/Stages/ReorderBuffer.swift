import GeoCore

/// Puts each device's fixes back in time order, within a bounded window.
///
/// Batched uploads and multiplexed feeds deliver fixes a little out of
/// order. The buffer holds each device's fixes until they are `window`
/// older than the newest fix seen for that device, then releases them
/// sorted by time (ties keep their arrival order). A fix that arrives more
/// than `window` behind its device's newest fix can no longer be placed and
/// is returned as ``Output/late(_:)``: the caller reports and drops it.
/// Only timed fixes come in: a fix without time has no place on the clock.
///
/// A pure state machine (STYLE.md, habit 9): ``push(_:)`` and ``finish()``
/// return what to do; there is no clock and no I/O. Memory is bounded by
/// the fixes of one window per device.
///
/// Example, window 5 s, one device: pushing t = 10, 8, 12, 20 releases
/// 8, 10, 12 when 20 arrives (all are more than 5 s older than 20);
/// pushing 3 afterwards returns `.late` (17 s behind 20).
public struct ReorderBuffer: Sendable {
    /// What the buffer hands on.
    public enum Output: Hashable, Sendable {
        /// A fix released in time order.
        case fix(TimedFix)
        /// A fix too far behind its device's newest to be placed in order.
        case late(TimedFix)
    }

    /// The window in nanoseconds.
    public let window: Int64
    private var devices: [DeviceBuffer] = []
    private var deviceSlots = DeviceSlots()

    /// A buffer with a window in seconds (DESIGN.md default: 5 s).
    public init(windowSeconds: Double = 5) {
        // Clamped to Int64's nanoseconds (292 years), never a trap.
        window = Int64(min(max(0, windowSeconds) * 1e9, 9.2e18).rounded())
    }

    /// Takes one fix; returns the fixes it releases (possibly none).
    public mutating func push(_ fix: TimedFix) -> [Output] {
        var released: [Output] = []
        push(fix, into: &released)
        return released
    }

    /// Takes one fix and appends what it releases to `released` (the
    /// allocation-free form of ``push(_:)`` for a caller that reuses one
    /// array).
    public mutating func push(_ fix: TimedFix, into released: inout [Output]) {
        let time = fix.time.nanoseconds
        let slot = slot(of: fix.device ?? "")
        if let newest = devices[slot].newest, time < horizon(newest) || time < devices[slot].floor {
            return released.append(.late(fix))
        }
        devices[slot].insert(fix, at: time)
        // Fixes strictly older than the horizon can no longer be preceded
        // by an accepted newcomer.
        devices[slot].release(before: horizon(devices[slot].newest!), into: &released)
    }

    /// `newest` − the window, saturating at Int64's earliest time (a fix of
    /// 1678 with a window of weeks), never a trap.
    @inline(__always)
    private func horizon(_ newest: Int64) -> Int64 {
        let (difference, overflow) = newest.subtractingReportingOverflow(window)
        return overflow ? .min : difference
    }

    /// Moves `device`'s newest time on to `time` without a fix (a receiver
    /// epoch that had none) and appends what that releases; a device not
    /// seen yet holds nothing.
    public mutating func advance(device: String, to time: Timestamp, into released: inout [Output]) {
        guard let slot = deviceSlots.existingSlot(of: device), let newest = devices[slot].newest else { return }
        devices[slot].newest = max(newest, time.nanoseconds)
        devices[slot].release(before: horizon(devices[slot].newest!), into: &released)
    }

    /// Releases everything held, device by device in time order, without
    /// waiting for the window (a live source went quiet); a fix that then
    /// arrives older than the newest released for its device is late.
    public mutating func releaseHeld(into released: inout [Output]) {
        for (_, slot) in deviceSlots.byName {
            devices[slot].release(before: .max, into: &released)
            devices[slot].floor = devices[slot].newest ?? .min
        }
    }

    /// Releases everything still held, device by device, in time order.
    public mutating func finish() -> [Output] {
        var released: [Output] = []
        for (_, slot) in deviceSlots.byName {
            devices[slot].release(before: .max, into: &released)
        }
        return released
    }

    /// The number of fixes held.
    public var heldCount: Int { devices.reduce(0) { $0 + $1.pending.count - $1.head } }

    /// The position of `device`'s buffer, made on first sight.
    private mutating func slot(of device: String) -> Int {
        let found = deviceSlots.slot(of: device)
        if found.isNew { devices.append(DeviceBuffer()) }
        return found.slot
    }
}

/// One device's held fixes, sorted by time (ties in arrival order), and
/// the newest time seen.
private struct DeviceBuffer: Sendable {
    /// Held fixes in order from `head` on (released ones before it are
    /// dropped in bulk, so releasing one fix costs no shifting).
    var pending: [TimedFix] = []
    var head = 0
    var newest: Int64?
    /// The earliest time a fix may still have: everything up to the newest
    /// was released early (``ReorderBuffer/releaseHeld(into:)``).
    var floor = Int64.min

    /// Inserts after every held fix not later than `time`; in-order input
    /// appends.
    mutating func insert(_ fix: TimedFix, at time: Int64) {
        newest = max(newest ?? time, time)
        var index = pending.count
        while index > head, time < pending[index - 1].time.nanoseconds { index -= 1 }
        if index == pending.count { pending.append(fix) } else { pending.insert(fix, at: index) }
    }

    /// Appends the held fixes older than `horizon` to `released`.
    mutating func release(before horizon: Int64, into released: inout [ReorderBuffer.Output]) {
        while head < pending.count, pending[head].time.nanoseconds < horizon {
            released.append(.fix(pending[head]))
            head += 1
        }
        if head == pending.count {
            pending.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 {
            pending.removeFirst(head)
            head = 0
        }
    }
}
