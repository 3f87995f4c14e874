import GeoCore

/// The members of one Google Takeout location record that become a fix;
/// the others (`source`, `activity`, `verticalAccuracy`, `platformType`…)
/// are passed over.
struct TakeoutRecord: JSONMemberSink {
    var latitudeE7: Double?
    var longitudeE7: Double?
    var timestamp: String?
    var timestampMs: String?
    var accuracy: Double?
    var altitude: Double?
    var velocity: Double?
    var heading: Double?
    var deviceTag: String?

    mutating func set(
        key: UnsafeBufferPointer<UInt8>, string: String?, number: Double?, numberText: UnsafeBufferPointer<UInt8>?
    ) {
        switch String(decoding: key, as: UTF8.self) {
        case "latitudeE7": latitudeE7 = number
        case "longitudeE7": longitudeE7 = number
        case "timestamp": timestamp = string
        // A string in every export seen, a number in some rewritten ones.
        case "timestampMs": timestampMs = string ?? numberText.map { String(decoding: $0, as: UTF8.self) }
        case "accuracy": accuracy = number
        case "altitude": altitude = number
        case "velocity": velocity = number
        case "heading": heading = number
        case "deviceTag": deviceTag = numberText.map { String(decoding: $0, as: UTF8.self) } ?? string
        default: break
        }
    }

    /// Records from before 2013 hold some coordinates that overflowed a
    /// signed 32-bit integer: a latitude above 90° or a longitude above
    /// 180° in E7 is read 2³² lower, as the converters that read these
    /// exports do (a latitudeE7 of 4 294 967 295 is -0.0000001°).
    static func unwrapped(_ e7: Double, limit: Double) -> Double {
        e7 > limit * 1e7 ? e7 - 4_294_967_296 : e7
    }

    /// The record's time: `timestamp` (RFC 3339, newer exports) or
    /// `timestampMs` (milliseconds since 1970 as a string, older ones).
    /// `.failure` carries the reason a present time was not read.
    func time() -> Result<Timestamp, TimeProblem>? {
        if let timestamp {
            guard let time = RFC3339.parse(timestamp) else {
                return .failure(
                    TimeProblem(
                        "timestamp '\(timestamp)' is \(RFC3339.outsideHeldSpan(timestamp) ?? "not RFC 3339")"))
            }
            return .success(time)
        }
        guard let timestampMs else { return nil }
        // ±9.2e15 ms keeps the nanoseconds within Int64 (±292 years of 1970).
        guard timestampMs.utf8.count <= 16, let milliseconds = Int64(timestampMs),
            abs(milliseconds) <= 9_223_372_036_854
        else {
            return .failure(TimeProblem("timestampMs '\(timestampMs)' is no count of milliseconds since 1970 held"))
        }
        return .success(Timestamp(nanoseconds: milliseconds * 1_000_000, fractionDigits: 3))
    }

    /// Why a record's time was not read.
    struct TimeProblem: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }
}
