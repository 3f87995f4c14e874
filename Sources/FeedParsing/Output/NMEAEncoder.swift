import GeoCore

/// Writes fixes as NMEA 0183 sentences: per fix an RMC, a GGA and a GSA
/// (or the subset in ``sentences``), each `$…*hh` with its checksum and a
/// CRLF, as a receiver sends one epoch.
///
/// Precision (what the decoder returns):
/// - position `ddmm.mmmmmm` / `dddmm.mmmmmm`: within 1 cm (1.9 mm of latitude);
/// - time `hhmmss` when the fix's time has no fraction digits, else
///   `hhmmss.ss` (rounded to the centisecond); the date in RMC;
/// - speed in knots to 3 decimals and course to 2 (RMC), altitude to 2
///   (GGA), HDOP to 2 (GGA and GSA).
///
/// NMEA carries no accuracy: a fix with an accuracy but no HDOP gets HDOP =
/// accuracy / ``Fix/metresPerHDOP``, which the decoders turn back into the
/// same effective accuracy. Nor does it carry a device: one stream is one
/// receiver. Two fixes with the same time are one epoch to a decoder.
/// RMC's two-digit year is read as 1980…2079.
public struct NMEAEncoder: FeedEncoder {
    /// The talker of every sentence.
    public enum Talker: String, Sendable, CaseIterable {
        /// GPS alone.
        case gp = "GP"
        /// A multi-constellation receiver.
        case gn = "GN"
    }

    /// The sentences written per epoch, in the order RMC, GGA, GSA.
    public struct Sentences: OptionSet, Sendable {
        public let rawValue: UInt8
        /// Creates a set from its raw bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Time, date, status, position, speed and course.
        public static let rmc = Sentences(rawValue: 1)
        /// Time, quality, position, HDOP and altitude.
        public static let gga = Sentences(rawValue: 2)
        /// Fix mode (none, 2D, 3D) and HDOP.
        public static let gsa = Sentences(rawValue: 4)
        /// RMC, GGA and GSA.
        public static let all: Sentences = [.rmc, .gga, .gsa]
    }

    /// The talker of every sentence.
    public var talker: Talker
    /// The sentences written per epoch.
    public var sentences: Sentences
    /// The last epoch's day and its date, which the next epoch almost
    /// always shares.
    private var lastDay = (days: Int64.min, date: (year: 0, month: 0, day: 0))

    /// Creates an encoder.
    public init(talker: Talker = .gp, sentences: Sentences = .all) {
        self.talker = talker
        self.sentences = sentences
    }

    /// Always ``FeedFormat/nmea``.
    public var format: FeedFormat { .nmea }

    /// NMEA has no header.
    public func appendHeader(to bytes: inout [UInt8]) {}

    /// Appends one epoch. A valid one carries the position (RMC status A,
    /// GGA quality 1 with 8 satellites, GSA mode 2, or 3 with an altitude); an invalid one
    /// only the time and date (RMC status V, GGA quality 0, GSA mode 1).
    /// The fix must have a time.
    public mutating func append(_ fix: Fix, valid: Bool, to bytes: inout [UInt8]) {
        guard let time = fix.time else { preconditionFailure("an NMEA epoch needs a time") }
        let clock = EpochClock(time, lastDay: &lastDay)
        // Formed in a stack buffer and appended at once: numbers are at most
        // 21 bytes, so an epoch stays far below the buffer's size.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { buffer in
            var cursor = ByteCursor(buffer)
            write(fix, time: clock, valid: valid, to: &cursor)
            bytes.append(contentsOf: cursor.written)
        }
    }

    @inline(__always)
    private func write(_ fix: Fix, time clock: EpochClock, valid: Bool, to cursor: inout ByteCursor) {
        let hdop = fix.hdop ?? fix.accuracy.map { $0 / Fix.metresPerHDOP }
        // The time, position and HDOP are formatted by the first sentence
        // that has them and copied into the next.
        var time: Field?
        var position: Field?
        var hdopText: Field?
        if sentences.contains(.rmc) {
            let start = beginSentence("RMC", to: &cursor)
            time = writeTime(clock, copying: time, to: &cursor)
            if valid {
                cursor.put(",A,")
                position = writePosition(fix.coordinate, copying: position, to: &cursor)
                cursor.put(0x2C)
                cursor.put(fix.speed.map { $0 / Self.metresPerSecondPerKnot }, decimals: 3)
                cursor.put(0x2C)
                cursor.put(fix.course, decimals: 2)
            } else {
                cursor.put(",V,,,,,,")
            }
            cursor.put(0x2C)
            cursor.put(digits: UInt64(clock.day), width: 2)
            cursor.put(digits: UInt64(clock.month), width: 2)
            cursor.put(digits: UInt64(clock.year % 100), width: 2)
            cursor.put(valid ? ",,,A" : ",,,N")
            cursor.putChecksum(from: start)
        }
        if sentences.contains(.gga) {
            let start = beginSentence("GGA", to: &cursor)
            time = writeTime(clock, copying: time, to: &cursor)
            cursor.put(0x2C)
            if valid {
                position = writePosition(fix.coordinate, copying: position, to: &cursor)
                // Satellites in use: the fix does not say, but gpsd takes an empty
                // or zero count for no fix, so a valid epoch claims eight.
                cursor.put(",1,08,")
                hdopText = writeHDOP(hdop, copying: hdopText, to: &cursor)
                cursor.put(0x2C)
                cursor.put(fix.elevation, decimals: 2)
            } else {
                cursor.put(",,,,0,,,")
            }
            cursor.put(",M,,M,,")
            cursor.putChecksum(from: start)
        }
        if sentences.contains(.gsa) {
            let start = beginSentence("GSA", to: &cursor)
            let mode: UInt8 = !valid ? 0x31 : fix.elevation == nil ? 0x32 : 0x33
            cursor.put(",A,")
            cursor.put(mode)
            cursor.put(",,,,,,,,,,,,,,")  // 12 satellite numbers and PDOP: not known
            if valid { hdopText = writeHDOP(hdop, copying: hdopText, to: &cursor) }
            cursor.put(0x2C)  // VDOP: not known
            cursor.putChecksum(from: start)
        }
    }

    /// NMEA has no footer.
    public func appendFooter(to bytes: inout [UInt8]) {}

    /// `$BODY*hh` and CRLF: a sentence from its body (`GPGGA,…`), for
    /// tests that need a hand-made sentence, such as a deliberately odd one.
    package static func sentence(_ body: String) -> String {
        let body = Array(body.utf8)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: body.count + 14) { buffer in
            var cursor = ByteCursor(buffer)
            cursor.put(0x24)
            for byte in body { cursor.put(byte) }
            cursor.putChecksum(from: 0)
            return String(decoding: cursor.written, as: UTF8.self)
        }
    }

    private static let metresPerSecondPerKnot = 1852.0 / 3600.0

    /// Where a field's text was first written in the record.
    private typealias Field = (start: Int, length: Int)

    /// Writes `$`, the talker and the type; returns where the `$` is.
    @inline(__always)
    private func beginSentence(_ type: StaticString, to cursor: inout ByteCursor) -> Int {
        let start = cursor.count
        cursor.put(0x24)
        cursor.put(0x47)
        cursor.put(talker == .gp ? 0x50 : 0x4E)
        cursor.put(type)
        return start
    }

    /// `,hhmmss` or `,hhmmss.ss`: a copy of `earlier` when given; returns
    /// where the digits are.
    @inline(__always)
    private func writeTime(_ clock: EpochClock, copying earlier: Field?, to cursor: inout ByteCursor) -> Field {
        cursor.put(0x2C)
        let start = cursor.count
        if let earlier {
            cursor.repeatBytes(from: earlier.start, length: earlier.length)
            return earlier
        }
        let second = UInt32(clock.secondOfDay)
        cursor.put(digits: UInt64(second / 3600), width: 2)
        cursor.put(digits: UInt64(second / 60 % 60), width: 2)
        cursor.put(digits: UInt64(second % 60), width: 2)
        if let centiseconds = clock.centiseconds {
            cursor.put(0x2E)
            cursor.put(digits: UInt64(centiseconds), width: 2)
        }
        return (start, cursor.count - start)
    }

    /// `ddmm.mmmmmm,N,dddmm.mmmmmm,E`, or a copy of `earlier` when given.
    @inline(__always)
    private func writePosition(_ coordinate: Coordinate, copying earlier: Field?, to cursor: inout ByteCursor) -> Field {
        if let earlier {
            cursor.repeatBytes(from: earlier.start, length: earlier.length)
            return earlier
        }
        let start = cursor.count
        writeAngle(coordinate.latitude, degreeDigits: 2, positive: 0x4E, negative: 0x53, to: &cursor)
        cursor.put(0x2C)
        writeAngle(coordinate.longitude, degreeDigits: 3, positive: 0x45, negative: 0x57, to: &cursor)
        return (start, cursor.count - start)
    }

    /// The HDOP to two decimals (nothing when `nil`), or a copy of `earlier` when given.
    @inline(__always)
    private func writeHDOP(_ hdop: Double?, copying earlier: Field?, to cursor: inout ByteCursor) -> Field {
        if let earlier {
            cursor.repeatBytes(from: earlier.start, length: earlier.length)
            return earlier
        }
        let start = cursor.count
        cursor.put(hdop, decimals: 2)
        return (start, cursor.count - start)
    }

    /// Degrees and minutes to a millionth of a minute, then the hemisphere.
    @inline(__always)
    private func writeAngle(_ degrees: Double, degreeDigits: Int, positive: UInt8, negative: UInt8, to cursor: inout ByteCursor) {
        let microminutes = DecimalText.roundedMagnitude(degrees * 60_000_000)
        cursor.put(digits: microminutes / 60_000_000, width: degreeDigits)
        let minutes = UInt32(truncatingIfNeeded: microminutes % 60_000_000)
        cursor.put(digits: UInt64(minutes / 1_000_000), width: 2)
        cursor.put(0x2E)
        cursor.put(digits: UInt64(minutes % 1_000_000), width: 6)
        cursor.put(0x2C)
        cursor.put(degrees < 0 && microminutes > 0 ? negative : positive)
    }
}

/// The UTC date and time of day of an epoch, rounded to what NMEA writes:
/// the centisecond when the time has fraction digits, else the second.
private struct EpochClock {
    let year: Int
    let month: Int
    let day: Int
    let secondOfDay: Int
    /// The hundredths of the second, or `nil` for a whole-second time.
    let centiseconds: Int?

    /// The clock of `time`; `lastDay` is the date of the day worked out
    /// last, reused when `time` falls on it and replaced when not.
    init(_ time: Timestamp, lastDay: inout (days: Int64, date: (year: Int, month: Int, day: Int))) {
        // Two branches so that every divisor is a constant (a multiplication).
        let days: Int64
        if time.fractionDigits > 0 {
            let centiseconds = Self.floorDivide(time.nanoseconds + 5_000_000, 10_000_000)
            days = Self.floorDivide(centiseconds, 8_640_000)
            let centisecondOfDay = centiseconds - days * 8_640_000
            secondOfDay = Int(centisecondOfDay / 100)
            self.centiseconds = Int(centisecondOfDay % 100)
        } else {
            let seconds = Self.floorDivide(time.nanoseconds + 500_000_000, 1_000_000_000)
            days = Self.floorDivide(seconds, 86_400)
            secondOfDay = Int(seconds - days * 86_400)
            centiseconds = nil
        }
        if days != lastDay.days { lastDay = (days, CivilCalendar.date(fromDays: Int(days))) }
        (year, month, day) = lastDay.date
    }

    @inline(__always)
    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}
