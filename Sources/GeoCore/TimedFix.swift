/// A fix that has a time: what every stage after the decoder works on.
///
/// Decoders may emit a ``Fix`` without time (a GPX point without `<time>`);
/// such a fix has no place on the feed clock. The pipeline turns every
/// other fix into a `TimedFix` once, so that the stages read ``time``
/// without unwrapping it.
public struct TimedFix: Hashable, Sendable {
    /// The fix as decoded; its `time` is never `nil`.
    public let fix: Fix

    /// The timed form of `fix`, or `nil` when it has no time.
    @inlinable
    public init?(_ fix: consuming Fix) {
        guard fix.time != nil else { return nil }
        self.fix = fix
    }

    /// When the fix was taken, in UTC.
    @inlinable public var time: Timestamp { fix.time.unsafelyUnwrapped }
    /// Where the device was.
    @inlinable public var coordinate: Coordinate { fix.coordinate }
    /// The device that produced the fix; `nil` for a feed's single unnamed device.
    @inlinable public var device: String? { fix.device }
    /// The device that produced the fix, interned; `nil` for a feed's single unnamed device.
    @inlinable public var deviceID: DeviceID? { fix.deviceID }
    /// The horizontal accuracy the geofence rules use (see ``Fix/effectiveAccuracy``).
    @inlinable public var effectiveAccuracy: Double? { fix.effectiveAccuracy }
}
