import GeoCore

/// Thins a feed as delivered, per device: a fix is kept when it is at
/// least `interval` seconds after the device's last kept fix (what a phone
/// asked for one fix every `interval` would have handed over). Fixes
/// without time are kept, for the stages to count.
struct IntervalDecimator {
    private let interval: Int64
    private var lastKept: [String?: Int64] = [:]
    private var lastDevice: String??
    private var lastDeviceTime = Int64.min

    /// A decimator; 0 keeps every fix.
    init(seconds: Double) {
        interval = Int64((seconds * 1e9).rounded())
    }

    /// Whether `fix` is delivered.
    mutating func keeps(_ fix: Fix) -> Bool {
        guard interval > 0, let time = fix.time?.nanoseconds else { return true }
        if lastDevice != .some(fix.device) {
            if let lastDevice { lastKept[lastDevice] = lastDeviceTime }
            lastDevice = .some(fix.device)
            lastDeviceTime = lastKept[fix.device] ?? Int64.min
        }
        guard lastDeviceTime == Int64.min || time - lastDeviceTime >= interval else { return false }
        lastDeviceTime = time
        return true
    }
}
