import GeoCore

/// Thins a feed as delivered, per device: a fix is kept when it is at
/// least `interval` seconds after the device's last kept fix (what a phone
/// asked for one fix every `interval` would have handed over). Fixes
/// without time are kept, for the stages to count.
struct IntervalDecimator {
    private let interval: Int64
    private var numbering = DeviceNumbering()
    /// Each device's last kept time by its number; `Int64.min` before any.
    private var lastKept: [Int64] = []

    /// A decimator; 0 keeps every fix, and an interval of 292 years or
    /// more (what nanoseconds in an `Int64` hold) the first of each device.
    init(seconds: Double) {
        interval = Int64(min(max(0, seconds) * 1e9, 9.2e18).rounded())
    }

    /// Whether `fix` is delivered.
    mutating func keeps(_ fix: Fix) -> Bool {
        guard interval > 0, let time = fix.time?.nanoseconds else { return true }
        let (device, isNew) = numbering.number(of: fix.deviceID)
        if isNew { lastKept.append(Int64.min) }
        // Two times more than 292 years apart overflow their difference: later by that much is kept.
        let (elapsed, overflow) = time.subtractingReportingOverflow(lastKept[device])
        guard lastKept[device] == Int64.min || (overflow ? time > lastKept[device] : elapsed >= interval) else { return false }
        lastKept[device] = time
        return true
    }
}
