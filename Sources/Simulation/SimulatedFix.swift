import GeoCore

/// A fix as the simulated receiver delivers it.
public struct SimulatedFix: Hashable, Sendable {
    /// The reported fix: time, noisy position, speed and course of the true
    /// motion, accuracy and HDOP of the error model, device.
    public var fix: Fix
    /// `false` for an invalid epoch (NMEA status V, fix quality 0) during a
    /// cold start; the position is set all the same.
    public var valid: Bool

    /// A delivered fix.
    public init(fix: Fix, valid: Bool) {
        self.fix = fix
        self.valid = valid
    }
}
