/// The comma-separated fields of one NMEA sentence, as ranges into its
/// bytes: field 0 is the address (`GPGGA`), the checksum is not a field.
///
/// Fields are read in place, without a `String` per field: numbers go
/// through ``ASCIIDecimal``, angles through ``angle(_:hemisphere:)``.
struct NMEAFields {
    let bytes: UnsafeBufferPointer<UInt8>
    let bounds: UnsafeMutablePointer<Int32>
    let count: Int

    /// The byte range of field `index`; empty when the sentence is shorter.
    @inline(__always)
    func range(_ index: Int) -> (start: Int, end: Int) {
        guard index < count else { return (0, 0) }
        return (Int(bounds[2 * index]), Int(bounds[2 * index + 1]))
    }

    /// Whether field `index` is absent or empty.
    @inline(__always)
    func isEmpty(_ index: Int) -> Bool {
        let r = range(index)
        return r.start >= r.end
    }

    /// The first byte of field `index`, or 0 when empty.
    @inline(__always)
    func character(_ index: Int) -> UInt8 {
        let r = range(index)
        return r.start < r.end ? bytes[r.start] : 0
    }

    /// Field `index` as a number: `nil` when empty, `.failure` when not a number.
    @inline(__always)
    func number(_ index: Int) -> FieldValue<Double> {
        let r = range(index)
        guard r.start < r.end else { return .absent }
        guard let value = ASCIIDecimal.double(bytes, r.start, r.end), value.isFinite else { return .invalid }
        return .value(value)
    }

    /// An angle written `(d)ddmm.mmmm` with its hemisphere letter field
    /// (`N`/`S`/`E`/`W`), in signed degrees.
    ///
    /// Degrees and minutes are split on the integer digits, read a word at
    /// a time when they are short: `4807.038` is 48 + 7038/60000, computed
    /// with two roundings instead of the three of `48 + 7.038 / 60`.
    func angle(_ index: Int, hemisphere: Int, limit: Double) -> FieldValue<Double> {
        let r = range(index)
        guard r.start < r.end else { return .absent }
        let whole: UInt64, fraction: UInt64, scale: Int
        if let plain = DigitWord.plainDecimal(bytes, r.start, r.end) {
            (whole, fraction, scale) = plain
        } else if let split = splitAngle(r) {
            (whole, fraction, scale) = split
        } else {
            return .invalid
        }
        let degrees = whole / 100
        let minutes = whole % 100
        guard minutes < 60 else { return .invalid }
        let unit = ASCIIDecimal.exactPowerOfTen(scale)
        // degrees + (minutes·10^k + fraction) / (10^k · 60): two roundings.
        var value = Double(degrees) + Double(minutes &* UInt64(unit) &+ fraction) / (unit * 60)
        switch character(hemisphere) {
        case 0x53, 0x57, 0x73, 0x77: value = -value  // S W s w
        case 0x4E, 0x45, 0x6E, 0x65: break
        default: return .invalid
        }
        guard abs(value) <= limit else { return .invalid }
        return .value(value)
    }

    /// `bytes[r]` read byte by byte as `digits[.digits]` (at most 12 and
    /// 15 digits): the digits before and after the point, and how many came
    /// after it; `nil` for anything else.
    private func splitAngle(_ r: (start: Int, end: Int)) -> (UInt64, UInt64, Int)? {
        var i = r.start
        var whole: UInt64 = 0
        while i < r.end, bytes[i] &- 0x30 < 10, i - r.start < 12 {
            whole = whole &* 10 &+ UInt64(bytes[i] &- 0x30)
            i += 1
        }
        guard i > r.start else { return nil }
        var fraction: UInt64 = 0
        var scale = 0
        if i < r.end, bytes[i] == 0x2E {
            i += 1
            while i < r.end, bytes[i] &- 0x30 < 10, scale < 15 {
                fraction = fraction &* 10 &+ UInt64(bytes[i] &- 0x30)
                scale += 1
                i += 1
            }
        }
        return i == r.end ? (whole, fraction, scale) : nil
    }

    /// A UTC time of day `hhmmss[.s…]` in nanoseconds, with its number of fraction digits.
    func timeOfDay(_ index: Int) -> FieldValue<(nanoseconds: Int64, fractionDigits: UInt8)> {
        var r = range(index)
        while r.start < r.end, bytes[r.start] == 0x20 { r.start += 1 }
        while r.end > r.start, bytes[r.end - 1] == 0x20 { r.end -= 1 }
        guard r.start < r.end else { return .absent }
        guard r.end - r.start >= 6 else { return .invalid }
        @inline(__always) func pair(_ k: Int) -> Int {
            let high = bytes[r.start + 2 * k] &- 0x30
            let low = bytes[r.start + 2 * k + 1] &- 0x30
            return high < 10 && low < 10 ? Int(high) * 10 + Int(low) : 99
        }
        let hours = pair(0), minutes = pair(1), seconds = pair(2)
        guard hours < 24, minutes < 60, seconds <= 60 else { return .invalid }
        var nanos = Int64(hours * 3600 + minutes * 60 + seconds) * 1_000_000_000
        var fractionDigits = 0  // counted in full: a field may hold hundreds of digits
        var i = r.start + 6
        if i < r.end {
            guard bytes[i] == 0x2E else { return .invalid }
            i += 1
            var scale: Int64 = 100_000_000
            while i < r.end {
                let d = bytes[i] &- 0x30
                guard d < 10 else { return .invalid }
                nanos += Int64(d) * scale
                scale /= 10
                fractionDigits += 1
                i += 1
            }
        }
        return .value((nanos, UInt8(min(fractionDigits, 9))))
    }

    /// An unsigned integer field of at most 9 digits.
    func integer(_ index: Int) -> FieldValue<Int> {
        let r = range(index)
        guard r.start < r.end else { return .absent }
        guard r.end - r.start <= 9 else { return .invalid }
        var value = 0
        for i in r.start..<r.end {
            let d = bytes[i] &- 0x30
            guard d < 10 else { return .invalid }
            value = value * 10 + Int(d)
        }
        return .value(value)
    }

    /// The text of field `index`, for messages.
    func text(_ index: Int) -> String {
        let r = range(index)
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[r.start..<max(r.start, r.end)]), as: UTF8.self)
    }
}

/// A field read: absent (empty), unreadable, or a value.
enum FieldValue<Value> {
    case absent
    case invalid
    case value(Value)
}
