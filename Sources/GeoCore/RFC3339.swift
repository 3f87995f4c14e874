/// A hand-written RFC 3339 / ISO 8601 date-time parser and formatter.
///
/// Foundation's `ISO8601DateFormatter` parses about 15 000 strings a second
/// on Linux; this parser works on UTF-8 bytes and does not allocate, so a
/// GPX file's million timestamps cost milliseconds.
///
/// Accepted: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM|±HHMM|±HH)`, with `t`,
/// `z` or a space in place of `T`/`Z`, any number of fraction digits (kept to
/// nanoseconds), and a leap second `:60` (folded onto the next second's
/// start). A missing offset is read as UTC, as GPX writers that omit it mean.
public enum RFC3339 {
    /// Parses a date-time from its UTF-8 bytes; `nil` if it is not one.
    @inlinable
    public static func parse<Bytes: Collection>(utf8 bytes: Bytes) -> Timestamp?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        if let stamp = bytes.withContiguousStorageIfAvailable(parseWholeSeconds) ?? nil { return stamp }
        return parseAnyForm(utf8: bytes)
    }

    /// ``parse(utf8:)`` of the commonest forms, whole seconds in UTC
    /// (`YYYY-MM-DDTHH:MM:SSZ`, or without the `Z`): nearly every time of
    /// a GPX track or a tasks file. Read eight bytes at a time at fixed
    /// places: the digits and separators of a word are checked together,
    /// its digits paired by one multiplication, and the day counted
    /// without a division (``CivilCalendar/days(year:month:day:)``): 174
    /// instructions a time, where reading byte by byte took 256; `nil` for
    /// anything else, which the general reader then reads or turns down.
    /// Every byte it accepts is a digit, `-`, `:`, `T`, `t`, `Z`, `z` or a
    /// space.
    public static func parseWholeSeconds(_ text: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        guard let p = text.baseAddress, text.count == 19 || (text.count == 20 && text[19] | 0x20 == 0x7A) else {
            return nil
        }
        // `YYYY-MM-`, `DDTHH:MM` and `:SS`, the first byte lowest.
        let date = WholeSecondsText.load(UInt64.self, p)
        let clock = WholeSecondsText.load(UInt64.self, p + 8)
        let seconds = WholeSecondsText.load(UInt32.self, p + 15)
        let separator = UInt8(truncatingIfNeeded: clock >> 16)
        guard WholeSecondsText.areDigits(date, at: WholeSecondsText.dateDigits),
            WholeSecondsText.areDigits(clock, at: WholeSecondsText.clockDigits),
            WholeSecondsText.areDigits(UInt64(seconds), at: 0xFFFF_0000),
            date & WholeSecondsText.dateDashes == 0x2D00_002D_0000_0000,
            clock & 0x0000_FF00_0000_0000 == 0x0000_3A00_0000_0000,
            seconds & 0x0000_FF00 == 0x0000_3A00, separator | 0x20 == 0x74 || separator == 0x20
        else { return nil }
        // Each byte of a pair word: ten times its digit plus the next one's.
        let datePairs = WholeSecondsText.pairs(date)
        let clockPairs = WholeSecondsText.pairs(clock)
        let year = Int(datePairs & 0xFF) &* 100 &+ Int(datePairs >> 16 & 0xFF)
        let month = Int(datePairs >> 40 & 0xFF)
        let day = Int(clockPairs & 0xFF)
        let hour = Int(clockPairs >> 24 & 0xFF)
        let minute = Int(clockPairs >> 48 & 0xFF)
        let second = Int(seconds >> 16 & 0x0F) &* 10 &+ Int(seconds >> 24 & 0x0F)
        guard month >= 1, month <= 12, day >= 1,
            day <= 28 || day <= CivilCalendar.daysInMonth(year: year, month: month),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        let total = Int64(days) &* 86_400 &+ Int64(hour &* 3600 &+ minute &* 60 &+ second)
        // Years outside Timestamp's range (1678…2262) are not representable.
        let (scaled, overflow) = total.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? nil : Timestamp(nanoseconds: scaled, fractionDigits: 0)
    }

    /// ``parse(utf8:)`` of every accepted form, byte by byte.
    @inlinable
    static func parseAnyForm<Bytes: Collection>(utf8 bytes: Bytes) -> Timestamp?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        guard let (seconds, nanos, fractionDigits) = parseFields(utf8: bytes) else { return nil }
        // Years outside Timestamp's range (1678…2262) are not representable.
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow, scaled <= Int64.max - nanos else { return nil }
        return Timestamp(nanoseconds: scaled + nanos, fractionDigits: fractionDigits)
    }

    /// The seconds since 1970 that a date-time in any accepted form names,
    /// and the nanoseconds past them: what ``parse(_:)`` reads, for every
    /// year from 0000 to 9999, where a ``Timestamp`` holds only 1678–2262.
    public static func secondsSince1970(_ string: String) -> (seconds: Int64, nanoseconds: Int64)? {
        var copy = string
        return copy.withUTF8 { parseFields(utf8: $0) }.map { ($0.seconds, $0.nanos) }
    }

    /// The fields of every accepted form, read byte by byte: seconds since
    /// 1970, nanoseconds past them and the fraction's digits.
    @inlinable @inline(__always)
    static func parseFields<Bytes: Collection>(utf8 bytes: Bytes) -> (seconds: Int64, nanos: Int64, fractionDigits: UInt8)?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var i = bytes.startIndex
        let end = bytes.endIndex
        @inline(__always) func digits(_ count: Int) -> Int? {
            guard end - i >= count else { return nil }
            var value = 0
            for _ in 0..<count {
                let d = Int(bytes[i]) &- 48
                guard d >= 0, d <= 9 else { return nil }
                value = value * 10 + d
                i += 1
            }
            return value
        }
        @inline(__always) func expect(_ character: UInt8) -> Bool {
            guard i < end, bytes[i] == character else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D),
            let day = digits(2)
        else { return nil }
        guard i < end, bytes[i] == 0x54 || bytes[i] == 0x74 || bytes[i] == 0x20 else { return nil }
        i += 1
        guard let hour = digits(2), expect(0x3A), let minute = digits(2), expect(0x3A),
            let second = digits(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1,
            day <= CivilCalendar.daysInMonth(year: year, month: month),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var nanos: Int64 = 0
        var fractionDigits: UInt8 = 0
        if i < end, bytes[i] == 0x2E || bytes[i] == 0x2C {
            i += 1
            var scale: Int64 = 100_000_000
            let start = i
            while i < end, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                nanos += Int64(bytes[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
            fractionDigits = UInt8(min(9, i - start))
        }
        var offsetSeconds = 0
        if i < end {
            switch bytes[i] {
            case 0x5A, 0x7A:  // Z z
                i += 1
            case 0x2B, 0x2D:  // + -
                let sign = bytes[i] == 0x2D ? -1 : 1
                i += 1
                guard let offsetHours = digits(2), offsetHours <= 23 else { return nil }
                var offsetMinutes = 0
                if i < end {
                    _ = expect(0x3A)
                    guard let minutes = digits(2), minutes <= 59 else { return nil }
                    offsetMinutes = minutes
                }
                offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
            default:
                return nil
            }
        }
        guard i == end else { return nil }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        return (seconds, nanos, fractionDigits)
    }

    /// The instants a ``Timestamp`` holds, as messages name them.
    public static let heldSpan = "1677-09-21T00:12:44Z to 2262-04-11T23:47:16Z"

    /// For a message that goes on from "is ": "outside ``heldSpan``, the
    /// times a feed can hold" when `text`, which ``parse(_:)`` turned
    /// down, is a date-time in another year; `nil` when it is no date-time.
    public static func outsideHeldSpan(_ text: String) -> String? {
        secondsSince1970(text) == nil ? nil : "outside \(heldSpan), the times a feed can hold"
    }

    /// Parses a date-time string; `nil` if it is not one.
    public static func parse(_ string: String) -> Timestamp? {
        var copy = string
        return copy.withUTF8 { parse(utf8: $0) }
    }

    /// Formats a timestamp in UTC, `2025-03-01T10:00:00Z`, with as many
    /// fractional digits as the timestamp's ``Timestamp/fractionDigits``.
    public static func format(_ timestamp: Timestamp) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(30)
        append(timestamp, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the UTC form of `timestamp` to a byte buffer.
    public static func append(_ timestamp: Timestamp, to bytes: inout [UInt8]) {
        // Written into a buffer on the stack and appended once: appending
        // byte by byte checked the array's uniqueness and room 25 times.
        withUnsafeTemporaryAllocation(byteCount: maximumLength, alignment: 1) { text in
            let count = write(timestamp, to: text)
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[..<count]))
        }
    }

    /// The most bytes the UTC form of a timestamp takes: nine fractional digits.
    public static let maximumLength = 30

    /// Writes the UTC form of `timestamp` at the start of `text`, which has
    /// room for ``maximumLength`` bytes; returns how many it wrote.
    public static func write(_ timestamp: Timestamp, to text: UnsafeMutableRawBufferPointer) -> Int {
        precondition(text.count >= maximumLength, "no room for a timestamp")
        var seconds = timestamp.nanoseconds / 1_000_000_000
        var nanos = timestamp.nanoseconds % 1_000_000_000
        if nanos < 0 {
            nanos += 1_000_000_000
            seconds -= 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let civil = CivilCalendar.date(fromDays: Int(days))
        var count = 0
        /// Two decimal digits of `value` (0...99), with unsigned division
        /// by constants.
        @inline(__always) func pair(_ value: Int) {
            let value = UInt(truncatingIfNeeded: value)
            text[count] = UInt8(truncatingIfNeeded: 48 + value / 10)
            text[count + 1] = UInt8(truncatingIfNeeded: 48 + value % 10)
            count += 2
        }
        @inline(__always) func put(_ byte: UInt8) {
            text[count] = byte
            count += 1
        }
        // Timestamps span the years 1677...2262: always four digits.
        pair(civil.year / 100)
        pair(civil.year % 100)
        put(0x2D)
        pair(civil.month)
        put(0x2D)
        pair(civil.day)
        put(0x54)
        let second = Int(secondOfDay)
        pair(second / 3600)
        put(0x3A)
        pair(second / 60 % 60)
        put(0x3A)
        pair(second % 60)
        if timestamp.fractionDigits > 0 {
            put(0x2E)
            // At most nine (the initializer's bound; the field can be set past it).
            let digits = min(Int(timestamp.fractionDigits), 9)
            var fraction = UInt(nanos)
            for _ in digits..<9 { fraction /= 10 }
            for index in stride(from: count + digits - 1, through: count, by: -1) {
                text[index] = UInt8(truncatingIfNeeded: 48 + fraction % 10)
                fraction /= 10
            }
            count += digits
        }
        put(0x5A)
        return count
    }
}

/// The word arithmetic of ``RFC3339/parseWholeSeconds(_:)``: bytes read
/// eight at a time, the first byte of the text in the lowest of the word.
enum WholeSecondsText {
    /// The digits of `YYYY-MM-` (bytes 0–3, 5 and 6).
    static let dateDigits: UInt64 = 0x00FF_FF00_FFFF_FFFF
    /// The dashes of `YYYY-MM-` (bytes 4 and 7).
    static let dateDashes: UInt64 = 0xFF00_00FF_0000_0000
    /// The digits of `DDTHH:MM` (bytes 0, 1, 3, 4, 6 and 7).
    static let clockDigits: UInt64 = 0xFFFF_00FF_FF00_FFFF

    /// The `Word` at `pointer`, unaligned, its first byte lowest.
    @inline(__always)
    static func load<Word: FixedWidthInteger>(_: Word.Type, _ pointer: UnsafePointer<UInt8>) -> Word {
        Word(littleEndian: UnsafeRawPointer(pointer).loadUnaligned(as: Word.self))
    }

    /// Whether every byte of `word` under `mask` is an ASCII digit: its
    /// high half 3, and still 3 with 6 added (`:` to `?` carry into 4). A
    /// byte above 0xF9 carries into the next one and may spoil its answer,
    /// but such a byte fails itself: under the mask here, or as a separator
    /// that the caller checks apart.
    @inline(__always)
    static func areDigits(_ word: UInt64, at mask: UInt64) -> Bool {
        let highHalves = mask & 0xF0F0_F0F0_F0F0_F0F0
        let threes = mask & 0x3030_3030_3030_3030
        return word & highHalves == threes && (word &+ 0x0606_0606_0606_0606) & highHalves == threes
    }

    /// Each byte of the digits' values ten times over plus the next
    /// byte's: at a pair's first byte, the pair's number (at most 99, so no
    /// byte carries into the next). Bytes not under a pair are nonsense.
    @inline(__always)
    static func pairs(_ word: UInt64) -> UInt64 {
        let values = word & 0x0F0F_0F0F_0F0F_0F0F
        return values &* 10 &+ (values >> 8)
    }
}
