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
    private var devices = DeviceTable(empty: DeviceBuffer())

    /// A buffer with a window in seconds (DESIGN.md default: 5 s).
    public init(windowSeconds: Double = 5) {
        // Clamped to Int64's nanoseconds (292 years), never a trap.
        window = Int64(min(max(0, windowSeconds) * 1e9, 9.2e18).rounded())
    }

    /// A buffer with the same window that holds no device yet.
    func emptied() -> ReorderBuffer {
        var buffer = self
        buffer.devices = DeviceTable(empty: DeviceBuffer())
        return buffer
    }

    /// Takes one fix; returns the fixes it releases (possibly none).
    public mutating func push(_ fix: TimedFix) -> [Output] {
        var released: [Output] = []
        push(fix) { released.append($0) }
        return released
    }

    /// Takes one fix and hands what it releases to `release`, in order (the
    /// allocation-free form of ``push(_:)``).
    public mutating func push(_ fix: consuming TimedFix, release: (Output) -> Void) {
        let time = fix.time.nanoseconds
        let slot = devices.slot(of: fix.deviceID).slot
        let newest = devices[slot].newest
        if let newest, time < horizon(newest) || time < devices[slot].floor { return release(.late(fix)) }
        // Fixes strictly older than the new horizon can no longer be
        // preceded by an accepted newcomer. The fix itself is not among them
        // (it is not late), so they go before it is inserted: a device
        // that holds one fix between pushes needs room for one.
        devices[slot].release(before: horizon(max(newest ?? time, time)), to: release)
        devices[slot].insert(fix, at: time)
    }

    /// `newest` − the window, saturating at Int64's earliest time (a fix of
    /// 1678 with a window of weeks), never a trap.
    @inline(__always)
    private func horizon(_ newest: Int64) -> Int64 {
        let (difference, overflow) = newest.subtractingReportingOverflow(window)
        return overflow ? .min : difference
    }

    /// Moves `device`'s newest time on to `time` without a fix (a receiver
    /// epoch that had none) and hands what that releases to `release`; a
    /// device not seen yet (or set aside) holds nothing.
    public mutating func advance(device: DeviceID, to time: Timestamp, release: (Output) -> Void) {
        guard let slot = devices.existingSlot(of: device), let newest = devices[slot].newest else { return }
        devices[slot].advance(to: time.nanoseconds)
        devices[slot].release(before: horizon(max(newest, time.nanoseconds)), to: release)
    }

    /// Releases everything held, device by device in time order, without
    /// waiting for the window (a live source went quiet); a fix that then
    /// arrives older than the newest released for its device is late.
    public mutating func releaseHeld(release: (Output) -> Void) {
        for (_, slot) in devices.byName {
            devices[slot].release(before: .max, to: release)
            devices[slot].raiseFloor()
        }
    }

    /// Releases everything still held, device by device, in time order.
    public mutating func finish() -> [Output] {
        var released: [Output] = []
        for (_, slot) in devices.byName { devices[slot].release(before: .max) { released.append($0) } }
        return released
    }

    /// Hands everything `device` (`""` for fixes without one) still holds
    /// to `release`, in time order.
    mutating func finish(device: DeviceID, release: (Output) -> Void) {
        guard let slot = devices.existingSlot(of: device) else { return }
        devices[slot].release(before: .max, to: release)
    }

    /// The number of fixes held.
    public var heldCount: Int { devices.byName.reduce(0) { $0 + devices[$1.slot].heldCount } }

    /// The devices present, in no particular order.
    var deviceIDs: [DeviceID] { devices.ids { _ in true } }

    /// The devices whose newest fix is older than `time` (nanoseconds).
    func devices(silentSince time: Int64) -> [DeviceID] {
        devices.ids { $0.newest.map { $0 < time } ?? false }
    }

    /// Takes `device` out: its newest time and held fixes;
    /// ``restore(_:device:)`` puts them back.
    mutating func remove(device: DeviceID) -> DeviceBuffer? { devices.remove(device) }

    /// Puts back what ``remove(device:)`` took.
    mutating func restore(_ buffer: DeviceBuffer, device: DeviceID) {
        devices[devices.slot(of: device).slot] = buffer
    }
}

/// One device's held fixes, sorted by time (ties in arrival order), and
/// the newest time seen.
struct DeviceBuffer: Sendable {
    /// Held fixes in order from `head` on (released ones before it are
    /// dropped once they are at least half of the array, so releasing one
    /// fix costs no shifting and the array stays within twice what is held).
    private var pending: [TimedFix] = []
    private var head = 0
    /// The newest time pushed (or reached by an epoch without a fix), in nanoseconds.
    private(set) var newest: Int64?
    /// The earliest time a fix may still have: everything up to the newest
    /// was released early (``ReorderBuffer/releaseHeld(release:)``).
    private(set) var floor = Int64.min

    /// The number of fixes held.
    var heldCount: Int { pending.count - head }

    /// Inserts after every held fix not later than `time`; in-order input
    /// appends.
    mutating func insert(_ fix: consuming TimedFix, at time: Int64) {
        newest = max(newest ?? time, time)
        var index = pending.count
        while index > head, time < pending[index - 1].time.nanoseconds { index -= 1 }
        if index == pending.count { pending.append(fix) } else { pending.insert(fix, at: index) }
    }

    /// Moves the newest time on to `time` (an epoch without a fix).
    mutating func advance(to time: Int64) { newest = max(newest ?? time, time) }

    /// Makes the newest time the floor: everything up to it has been released.
    mutating func raiseFloor() { floor = newest ?? .min }

    /// Hands the held fixes older than `horizon` to `release`, oldest first.
    mutating func release(before horizon: Int64, to release: (ReorderBuffer.Output) -> Void) {
        while head < pending.count, pending[head].time.nanoseconds < horizon {
            release(.fix(pending[head]))
            head += 1
        }
        if head == pending.count {
            pending.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= pending.count - head {
            pending.removeFirst(head)
            head = 0
        }
    }

    /// Appends the newest time and the held fixes to `writer`.
    func pack(into writer: inout PackedWriter) {
        writer.write(UInt8(newest == nil ? 0 : 1))
        if let newest { writer.write(newest) }
        writer.write(floor)
        writer.write(count: heldCount)
        for fix in pending[head...] { writer.write(fix.fix) }
    }
}

extension DeviceBuffer {
    /// Reads a buffer that ``pack(into:)`` wrote.
    init(unpacking reader: inout PackedReader) {
        self.init()
        newest = reader.readByte() == 0 ? nil : reader.readInt64()
        floor = reader.readInt64()
        for _ in 0..<reader.readCount() { pending.append(TimedFix(reader.readFix())!) }
    }
}
