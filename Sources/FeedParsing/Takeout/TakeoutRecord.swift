import GeoCore

/// The members of one Google Takeout location record that become a fix;
/// the others (`source`, `activity`, `verticalAccuracy`, `platformType`…)
/// are passed over. Each value is read as the scanner hands it on, from
/// the record's bytes, so a record costs no allocation.
struct TakeoutRecord: JSONMemberSink {
    var latitudeE7: Double?
    var longitudeE7: Double?
    /// From `timestamp` (RFC 3339, newer exports).
    var timestamp: Result<Timestamp, TimeProblem>?
    /// From `timestampMs` (milliseconds since 1970, older exports).
    var timestampMs: Result<Timestamp, TimeProblem>?
    var accuracy: Double?
    var altitude: Double?
    var velocity: Double?
    var heading: Double?
    /// `deviceTag`: a 64-bit integer in every export seen.
    var deviceTag: Int64?
    /// A `deviceTag` written otherwise (a string, a fraction), as written.
    var deviceTagText: String?

    mutating func set(key: UnsafeBufferPointer<UInt8>, value: JSONScalar) {
        switch key.count {
        case 7 where key.spells("heading"): heading = value.number
        case 8 where key.spells("accuracy"): accuracy = value.number
        case 8 where key.spells("altitude"): altitude = value.number
        case 8 where key.spells("velocity"): velocity = value.number
        case 9 where key.spells("timestamp"): timestamp = Self.time(rfc3339: value)
        case 9 where key.spells("deviceTag"): setDeviceTag(value)
        case 10 where key.spells("latitudeE7"): latitudeE7 = value.number
        case 11 where key.spells("longitudeE7"): longitudeE7 = value.number
        case 11 where key.spells("timestampMs"): timestampMs = Self.time(milliseconds: value)
        default: break
        }
    }

    /// The record's time: `timestampMs` where it has one, else
    /// `timestamp`, as google_takeout_parser reads them; `.failure` carries
    /// the reason a time present was not read, `nil` says there is none.
    var time: Result<Timestamp, TimeProblem>? { timestampMs ?? timestamp }

    /// Records from before 2013 hold some coordinates that overflowed a
    /// signed 32-bit integer: a latitude above 90° or a longitude above
    /// 180° in E7 is read 2³² lower, as the converters that read these
    /// exports do (a latitudeE7 of 4 294 967 295 is -0.0000001°).
    static func unwrapped(_ e7: Double, limit: Double) -> Double {
        e7 > limit * 1e7 ? e7 - 4_294_967_296 : e7
    }

    /// Why a record's time was not read.
    struct TimeProblem: Error {
        let message: String
    }

    private mutating func setDeviceTag(_ value: JSONScalar) {
        if case .number = value, let tag = value.integer {
            deviceTag = tag
        } else {
            deviceTagText = value.string ?? value.text
        }
    }

    private static func time(rfc3339 value: JSONScalar) -> Result<Timestamp, TimeProblem> {
        value.rfc3339.map { .success($0) } ?? .failure(TimeProblem(message: "timestamp \(value.timeProblem)"))
    }

    /// A string of digits in every export seen, a number in some rewritten ones.
    private static func time(milliseconds value: JSONScalar) -> Result<Timestamp, TimeProblem> {
        // ±9.2e15 ms keeps the nanoseconds within Int64 (±292 years of 1970).
        guard let milliseconds = value.integer, abs(milliseconds) <= 9_223_372_036_854 else {
            return .failure(
                TimeProblem(message: "timestampMs '\(value.string ?? value.text)' is no count of milliseconds since 1970 held"))
        }
        return .success(Timestamp(nanoseconds: milliseconds * 1_000_000, fractionDigits: 3))
    }
}
