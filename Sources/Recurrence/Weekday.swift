/// A day of the week, numbered as ISO 8601 does (Monday 1 … Sunday 7).
public enum Weekday: Int, Hashable, Sendable, CaseIterable, Comparable {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The three-letter name used in task files: `mon` … `sun`.
    public var shortName: String {
        ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][rawValue - 1]
    }

    /// Parses `mon`, `Monday`, `MO` and the like.
    ///
    /// - Throws: ``RecurrenceError/invalidWeekday(_:)`` naming the text.
    public init(parsing text: String) throws {
        guard let day = Self.spellings[text.trimmedLowercased()] else { throw RecurrenceError.invalidWeekday(text) }
        self = day
    }

    /// The day that ASCII `bytes` name, as ``init(parsing:)`` reads a name
    /// with no blanks around it; `nil` for anything else.
    init?(asciiName bytes: some Collection<UInt8>) {
        let count = bytes.count
        guard count >= 2 else { return nil }
        for (index, name) in Self.names.enumerated() where count <= 3 || count == name.utf8.count {
            // `| 0x20` lower-cases a letter (and makes no other byte one).
            if zip(bytes, name.utf8).allSatisfy({ $0 | 0x20 == $1 }) {
                self.init(rawValue: index + 1)
                return
            }
        }
        return nil
    }

    /// Every set of days, by its bits (Monday the lowest): a schedule's
    /// days taken from here share one set rather than each making its own.
    static let sets: [Set<Weekday>] = (0..<128).map { bits in
        Set(allCases.filter { bits & 1 << ($0.rawValue - 1) != 0 })
    }

    /// The full names, lower-cased, Monday first.
    private static let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// Every accepted spelling, lower-cased: the full name and its first
    /// three and two letters.
    private static let spellings: [String: Weekday] = {
        var spellings: [String: Weekday] = [:]
        for (index, name) in names.enumerated() {
            let day = Weekday(rawValue: index + 1)!
            for spelling in [name, String(name.prefix(3)), String(name.prefix(2))] { spellings[spelling] = day }
        }
        return spellings
    }()

    /// The weekday of a count of days since 1970-01-01 (a Thursday).
    static func of(daysSince1970 days: Int) -> Weekday {
        let index = ((days + 3) % 7 + 7) % 7  // 0 = Monday
        return Weekday(rawValue: index + 1)!
    }

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A wall-clock time of day, `18:00`.
public struct TimeOfDay: Hashable, Sendable, CustomStringConvertible {
    /// Hours, 0…23.
    public var hour: Int
    /// Minutes, 0…59.
    public var minute: Int

    /// Creates a time of day; the values must be in range.
    public init(hour: Int, minute: Int) {
        precondition((0...23).contains(hour) && (0...59).contains(minute), "time of day out of range")
        self.hour = hour
        self.minute = minute
    }

    /// Parses `18:00` or `7:30`.
    ///
    /// - Throws: ``RecurrenceError/invalidTimeOfDay(_:)`` naming the text.
    public init(parsing text: String) throws {
        // Read by bytes: a time of day is ASCII once any blanks around it
        // (Unicode's too) are gone.
        let bytes = text.asciiTrimmed() ?? text.trimmingWhitespace().asciiTrimmed()
        guard let bytes, let time = Self(asciiTrimmed: bytes) else { throw RecurrenceError.invalidTimeOfDay(text) }
        self = time
    }

    /// The time of day that ASCII `bytes`, with no blanks around them,
    /// spell, as ``init(parsing:)`` reads it; `nil` for anything else.
    init?(asciiTrimmed bytes: some BidirectionalCollection<UInt8>) {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let hourDigits = bytes[..<colon], minuteDigits = bytes[bytes.index(after: colon)...]
        guard (1...2).contains(hourDigits.count), minuteDigits.count == 2,
            let hour = hourDigits.decimalValue, let minute = minuteDigits.decimalValue,
            (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        self.init(hour: hour, minute: minute)
    }

    /// `18:00`.
    public var description: String {
        (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    /// Seconds after local midnight.
    var secondsOfDay: Int { hour * 3600 + minute * 60 }
}
