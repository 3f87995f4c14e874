import GeoCore

/// Writes fixes as a Garmin FIT activity file: a 14-byte header, a
/// `file_id` message, one `record` definition and a `record` message a fix,
/// then the file's CRC.
///
/// A FIT header opens with the length of the data, which a stream knows
/// only at its end. So the header is written with a length of 0, and once
/// the footer is written ``rewrittenStart`` holds the header that replaces
/// it (the writer of a file puts it at offset 0). The CRC the footer
/// appends is already the CRC of the file with that header: a CRC without
/// a start value or final XOR is linear, so the header's change is added
/// to the CRC of what was written.
///
/// A record holds the time in whole seconds (FIT's resolution), the
/// position in semicircles (8.4e-8°, under a centimetre), the enhanced
/// altitude (0.2 m) and speed (1 mm/s), and the effective accuracy in
/// whole metres as `gps_accuracy`. FIT's record has no course and no HDOP,
/// so they are not written; nor is the device: write one device a file.
/// `valid: false` writes a record with the time and no position (as a
/// receiver before its first fix), which ``FITDecoder`` counts.
public struct FITEncoder: FeedEncoder {
    /// The header written first, with a data length of 0.
    private static let placeholderHeader: [UInt8] = [14, 0x20, 0x54, 0x08, 0, 0, 0, 0, 0x2E, 0x46, 0x49, 0x54, 0, 0]
    /// The record's fields: number, size, base type.
    private static let recordFields: [(UInt8, UInt8, UInt8)] = [
        (253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (78, 4, 0x86), (73, 4, 0x86), (31, 1, 0x02),
    ]

    /// The CRC of everything appended so far, as written (the placeholder header first).
    private var crc = FITCRC()
    /// The bytes appended after the header.
    private var dataLength = 0
    private var hasOpened = false
    /// The header with the data's length, once the footer is written.
    public private(set) var rewrittenStart: [UInt8]?

    /// Creates an encoder.
    public init() {}

    /// Always ``FeedFormat/fit``.
    public var format: FeedFormat { .fit }

    /// The header, with a data length of 0 until ``rewrittenStart`` replaces it.
    public mutating func appendHeader(to bytes: inout [UInt8]) {
        append(Self.placeholderHeader, to: &bytes, isData: false)
    }

    /// Appends a `record` (the `file_id` and the record definition before the first).
    public mutating func append(_ fix: Fix, valid: Bool, to bytes: inout [UInt8]) {
        var message: [UInt8] = []
        message.reserveCapacity(64)
        if !hasOpened {
            hasOpened = true
            openFile(at: fix.time, into: &message)
        }
        message.append(0x00)
        appendUInt32(fix.time.flatMap(Self.fitTime) ?? .max, to: &message)
        let latitude = valid ? Self.semicircles(fix.coordinate.latitude) : Int32.max
        let longitude = valid ? Self.semicircles(fix.coordinate.longitude) : Int32.max
        appendUInt32(UInt32(bitPattern: latitude), to: &message)
        appendUInt32(UInt32(bitPattern: longitude), to: &message)
        let altitude = valid ? fix.elevation.flatMap { Self.scaled(($0 + 500) * 5) } : nil
        appendUInt32(altitude ?? .max, to: &message)
        let speed = valid ? fix.speed.flatMap { Self.scaled($0 * 1000) } : nil
        appendUInt32(speed ?? .max, to: &message)
        let accuracy = valid ? fix.effectiveAccuracy.map { min(254, max(0, $0.rounded())) } : nil
        message.append(accuracy.map { UInt8($0) } ?? 0xFF)
        append(message, to: &bytes, isData: true)
    }

    /// Appends the file's CRC and sets ``rewrittenStart``.
    public mutating func appendFooter(to bytes: inout [UInt8]) {
        var header = Self.placeholderHeader
        for index in 0..<4 { header[4 + index] = UInt8(truncatingIfNeeded: dataLength >> (8 * index)) }
        var headerCRC = FITCRC()
        header.withUnsafeBufferPointer { headerCRC.update(UnsafeBufferPointer(rebasing: $0[0..<12])) }
        header[12] = UInt8(truncatingIfNeeded: headerCRC.value)
        header[13] = UInt8(truncatingIfNeeded: headerCRC.value >> 8)
        // CRC(new header + data) = CRC(old header + data) ^ CRC((new ^ old) + zeros).
        var change = FITCRC()
        let difference = zip(header, Self.placeholderHeader).map { $0 ^ $1 }
        difference.withUnsafeBufferPointer { change.update($0) }
        change.updateWithZeros(count: dataLength)
        let fileCRC = crc.value ^ change.value
        bytes.append(UInt8(truncatingIfNeeded: fileCRC))
        bytes.append(UInt8(truncatingIfNeeded: fileCRC >> 8))
        rewrittenStart = header
    }

    /// The `file_id` (an activity from a development manufacturer, made at
    /// the first fix's time) and the record definition.
    private func openFile(at time: Timestamp?, into message: inout [UInt8]) {
        message += [0x40, 0, 0, 0, 0, 3, 0, 1, 0x00, 1, 2, 0x84, 4, 4, 0x86]
        message += [0x00, 4, 255, 0]
        appendUInt32(time.flatMap(Self.fitTime) ?? .max, to: &message)
        message += [0x40, 0, 0, 20, 0, UInt8(Self.recordFields.count)]
        for (number, size, type) in Self.recordFields { message += [number, size, type] }
    }

    private mutating func append(_ part: [UInt8], to bytes: inout [UInt8], isData: Bool) {
        part.withUnsafeBufferPointer { crc.update($0) }
        if isData { dataLength += part.count }
        bytes += part
    }

    private func appendUInt32(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// A time as FIT's seconds since 1989-12-31 (whole seconds, rounded
    /// down), or `nil` outside what a FIT date holds.
    private static func fitTime(_ time: Timestamp) -> UInt32? {
        let seconds = time.nanoseconds >= 0 ? time.nanoseconds / 1_000_000_000 : (time.nanoseconds + 1) / 1_000_000_000 - 1
        let fit = seconds - FITMessageReader.epochOffset
        guard fit >= Int64(FITMessageReader.smallestDate), fit < Int64(UInt32.max) else { return nil }
        return UInt32(fit)
    }

    /// Degrees as semicircles; 180° east (2^31, past Int32 and next to
    /// FIT's "no value") is written as the same meridian, 180° west.
    private static func semicircles(_ degrees: Double) -> Int32 {
        let value = Int64((degrees / FITMessageReader.degreesPerSemicircle).rounded())
        return value >= 1 << 31 ? Int32.min : Int32(clamping: value)
    }

    /// A scaled value as FIT's unsigned 32 bits, `nil` (written as invalid) when it does not fit.
    private static func scaled(_ value: Double) -> UInt32? {
        let rounded = value.rounded()
        guard rounded >= 0, rounded < Double(UInt32.max) else { return nil }
        return UInt32(rounded)
    }
}
