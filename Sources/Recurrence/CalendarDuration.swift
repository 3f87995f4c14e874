/// A length of time as people say it: "45s", "6h", "10w", "1mo".
///
/// Seconds, minutes and hours are exact durations. Days, weeks, months and
/// years are calendar steps taken in a task's time zone: one day after
/// 09:00 is 09:00 the next day even across a daylight-saving change, and one
/// month after January 31 is February 28 (or 29).
public struct CalendarDuration: Hashable, Sendable {
    /// The unit a duration counts.
    public enum Unit: String, Hashable, Sendable, CaseIterable {
        case seconds = "s"
        case minutes = "m"
        case hours = "h"
        case days = "d"
        case weeks = "w"
        case months = "mo"
        case years = "y"

        /// Seconds in one unit, for the exact units only.
        public var secondsPerUnit: Int64? {
            switch self {
            case .seconds: return 1
            case .minutes: return 60
            case .hours: return 3600
            case .days, .weeks, .months, .years: return nil
            }
        }

        /// A rough length in seconds, for estimates only (a month is 1/12
        /// of a mean Gregorian year).
        var approximateSeconds: Double {
            switch self {
            case .seconds: return 1
            case .minutes: return 60
            case .hours: return 3600
            case .days: return 86_400
            case .weeks: return 604_800
            case .months: return 2_629_746
            case .years: return 31_556_952
            }
        }
    }

    /// How many units; never negative.
    public var value: Int
    /// The unit counted.
    public var unit: Unit

    /// Creates a duration of `value` units.
    public init(_ value: Int, _ unit: Unit) {
        precondition(value >= 0, "a duration is never negative")
        self.value = value
        self.unit = unit
    }

    /// 24 hours, the default lead time.
    public static let oneDay = CalendarDuration(24, .hours)
    /// 12 hours, the default location cooldown.
    public static let twelveHours = CalendarDuration(12, .hours)

    /// A rough length in seconds (months 30.4 days, years 365.2425 days).
    public var approximateSeconds: Double { Double(value) * unit.approximateSeconds }

    /// Parses `45s`, `30m`, `6h`, `3d`, `2w`, `1mo`, `1y` (also the long
    /// names: `10 weeks`, `1 month`, `90 minutes`).
    ///
    /// - Throws: ``RecurrenceError/invalidDuration(_:)`` naming the text.
    public init(parsing text: String) throws {
        if let bytes = text.asciiTrimmed() {
            // ASCII, as tasks files are: the same reading by bytes (walking
            // characters cost about 6k instructions a duration).
            guard let duration = Self(asciiTrimmedAtStart: bytes) else { throw RecurrenceError.invalidDuration(text) }
            self = duration
            return
        }
        let trimmed = text.trimmingWhitespace()
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        let unitText = trimmed.dropFirst(digits.count).trimmedLowercased()
        guard !digits.isEmpty, digits.count <= 9, let value = Int(digits),
            let unit = Self.unitNames[unitText]
        else { throw RecurrenceError.invalidDuration(text) }
        self.init(value, unit)
    }

    /// The duration that ASCII `bytes`, with no blanks before them, spell
    /// (blanks after them are allowed); `nil` if they spell none.
    init?(asciiTrimmedAtStart bytes: some BidirectionalCollection<UInt8>) {
        let digits = bytes.prefix { (0x30...0x39).contains($0) }
        guard !digits.isEmpty, digits.count <= 9, let code = bytes[digits.endIndex...].asciiTrimmedLowercaseCode,
            let unit = Self.unit(code: code)
        else { return nil }
        self.init(digits.decimalValue!, unit)
    }

    /// ``init(asciiTrimmedAtStart:)`` for bytes in memory, the tasks
    /// file's: its short forms (`1d`, `36h`, `10w`) are read at fixed
    /// places, in some 15 instructions rather than 270.
    init?(asciiTrimmedAtStart bytes: UnsafeBufferPointer<UInt8>) {
        if let short = Self.shortForm(bytes) {
            self = short
        } else {
            self.init(asciiTrimmedAtStart: bytes[...])
        }
    }

    /// The duration of one or two digits and a unit's one lowercase
    /// letter; `nil` for any other text, which may still spell one.
    private static func shortForm(_ bytes: UnsafeBufferPointer<UInt8>) -> CalendarDuration? {
        guard bytes.count == 2 || bytes.count == 3 else { return nil }
        let first = bytes[0] &- UInt8(ascii: "0")
        guard first < 10 else { return nil }
        var value = Int(first)
        if bytes.count == 3 {
            let second = bytes[1] &- UInt8(ascii: "0")
            guard second < 10 else { return nil }
            value = value * 10 + Int(second)
        }
        let unit: Unit
        switch bytes[bytes.count - 1] {
        case UInt8(ascii: "s"): unit = .seconds
        case UInt8(ascii: "m"): unit = .minutes
        case UInt8(ascii: "h"): unit = .hours
        case UInt8(ascii: "d"): unit = .days
        case UInt8(ascii: "w"): unit = .weeks
        case UInt8(ascii: "y"): unit = .years
        default: return nil
        }
        return CalendarDuration(value, unit)
    }

    private static let unitNames: [String: Unit] = {
        var names: [String: Unit] = [:]
        let spellings: [(Unit, [String])] = [
            (.seconds, ["s", "sec", "secs", "second", "seconds"]),
            (.minutes, ["m", "min", "mins", "minute", "minutes"]),
            (.hours, ["h", "hr", "hrs", "hour", "hours"]),
            (.days, ["d", "day", "days"]),
            (.weeks, ["w", "wk", "wks", "week", "weeks"]),
            (.months, ["mo", "mon", "month", "months"]),
            (.years, ["y", "yr", "yrs", "year", "years"]),
        ]
        for (unit, words) in spellings { for word in words { names[word] = unit } }
        return names
    }()

    /// ``unitNames`` by their bytes packed in a word, in increasing order:
    /// no text is made, and a search of some thirty words beats hashing one.
    private static let unitCodes: [(code: UInt64, unit: Unit)] = unitNames.map {
        (Array($0.key.utf8)[...].asciiTrimmedLowercaseCode!, $0.value)
    }.sorted { $0.code < $1.code }

    /// The unit whose name is packed in `code` (see ``unitCodes``).
    private static func unit(code: UInt64) -> Unit? {
        unitCodes.withUnsafeBufferPointer { codes in
            var low = 0
            var high = codes.count
            while low < high {
                let middle = (low + high) / 2
                if codes[middle].code < code { low = middle + 1 } else { high = middle }
            }
            return low < codes.count && codes[low].code == code ? codes[low].unit : nil
        }
    }
}

extension CalendarDuration: CustomStringConvertible {
    /// The short form that ``init(parsing:)`` reads back: `10w`, `1mo`.
    public var description: String { "\(value)\(unit.rawValue)" }
}

extension StringProtocol {
    /// The text without leading and trailing whitespace.
    func trimmingWhitespace() -> String {
        // ASCII (every name and number in a tasks file): by bytes, the same
        // answer without walking characters.
        if let trimmed = asciiTrimmed() { return String(decoding: trimmed, as: UTF8.self) }
        guard let first = firstIndex(where: { !$0.isWhitespace }),
            let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }

    /// The text's UTF-8 bytes without leading and trailing whitespace when
    /// every byte is ASCII; `nil` otherwise.
    func asciiTrimmed() -> ArraySlice<UInt8>? {
        let bytes = Array(utf8)
        guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
        guard let first = bytes.firstIndex(where: { !isASCIISpace($0) }) else { return [] }
        let last = bytes.lastIndex(where: { !isASCIISpace($0) })!
        return bytes[first...last]
    }

    /// ``trimmingWhitespace()`` then `lowercased()`, by bytes for ASCII text.
    func trimmedLowercased() -> String {
        guard let trimmed = asciiTrimmed() else { return trimmingWhitespace().lowercased() }
        return trimmed.asciiLowercased()
    }
}

extension BidirectionalCollection<UInt8> {
    /// The number these ASCII decimal digits spell; `nil` if any byte is
    /// not a digit.
    var decimalValue: Int? {
        var value = 0
        for byte in self {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    /// ASCII bytes without leading and trailing whitespace, lower-cased
    /// and packed little-end first in a word, their count in the top byte;
    /// `nil` for more than 7 bytes.
    var asciiTrimmedLowercaseCode: UInt64? {
        guard let first = firstIndex(where: { !isASCIISpace($0) }) else { return 0 }
        let trimmed = self[first...lastIndex(where: { !isASCIISpace($0) })!]
        guard trimmed.count <= 7 else { return nil }
        var code = UInt64(trimmed.count) << 56
        for (shift, byte) in zip(stride(from: 0, to: 64, by: 8), trimmed) {
            code |= UInt64((0x41...0x5A).contains(byte) ? byte + 0x20 : byte) << shift
        }
        return code
    }

    /// ASCII bytes lower-cased, as text.
    func asciiLowercased() -> String {
        String(decoding: map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}

/// Space, and tab through carriage return: ASCII's whitespace characters.
private func isASCIISpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
