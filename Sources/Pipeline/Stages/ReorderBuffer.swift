import GeoCore

/// Puts each device's fixes back in time order, within a bounded window.
///
/// Batched uploads and multiplexed feeds deliver fixes a little out of
/// order. The buffer holds each device's fixes until they are `window`
/// older than the newest fix seen for that device, then releases them
/// sorted by time (ties keep their arrival order). A fix that arrives more
/// than `window` behind its device's newest fix can no longer be placed and
/// is returned as ``Output/late(_:)``: the caller reports and drops it.
/// Fixes without a time pass straight through.
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
        case fix(Fix)
        /// A fix too far behind its device's newest to be placed in order.
        case late(Fix)
    }

    /// The window in nanoseconds.
    public let window: Int64
    private var devices: [String: DeviceBuffer] = [:]
    private var arrivals = 0

    /// A buffer with a window in seconds (DESIGN.md default: 5 s).
    public init(windowSeconds: Double = 5) {
        window = Int64((max(0, windowSeconds) * 1e9).rounded())
    }

    /// Takes one fix; returns the fixes it releases (possibly none).
    public mutating func push(_ fix: Fix) -> [Output] {
        guard let time = fix.time else { return [.fix(fix)] }
        let key = fix.device ?? ""
        var buffer = devices[key] ?? DeviceBuffer()
        defer { devices[key] = buffer }
        if let newest = buffer.newest, time.nanoseconds < newest - window {
            return [.late(fix)]
        }
        arrivals += 1
        buffer.pending.append(Pending(time: time.nanoseconds, arrival: arrivals, fix: fix))
        buffer.newest = max(buffer.newest ?? time.nanoseconds, time.nanoseconds)
        let horizon = buffer.newest! - window
        // Fixes strictly older than the horizon can no longer be preceded
        // by an accepted newcomer.
        guard buffer.pending.contains(where: { $0.time < horizon }) else { return [] }
        buffer.pending.sort()
        let ready = buffer.pending.prefix { $0.time < horizon }
        buffer.pending.removeFirst(ready.count)
        return ready.map { .fix($0.fix) }
    }

    /// Releases everything still held, device by device, in time order.
    public mutating func finish() -> [Output] {
        var released: [Output] = []
        for key in devices.keys.sorted() {
            released += devices[key]!.pending.sorted().map { .fix($0.fix) }
            devices[key]!.pending = []
        }
        return released
    }

    /// The number of fixes held.
    public var heldCount: Int { devices.values.reduce(0) { $0 + $1.pending.count } }
}

/// One device's held fixes and the newest time seen.
private struct DeviceBuffer: Sendable {
    var pending: [Pending] = []
    var newest: Int64?
}

/// A held fix, ordered by time and then arrival.
private struct Pending: Comparable, Sendable {
    var time: Int64
    var arrival: Int
    var fix: Fix

    static func < (lhs: Pending, rhs: Pending) -> Bool {
        lhs.time != rhs.time ? lhs.time < rhs.time : lhs.arrival < rhs.arrival
    }

    static func == (lhs: Pending, rhs: Pending) -> Bool { lhs.time == rhs.time && lhs.arrival == rhs.arrival }
}
