import GeoCore

/// Decodes Garmin FIT files, the binary activities and courses that
/// watches, bike computers, Garmin Connect, Strava and GPSBabel write:
/// chunks in, fixes out, memory bounded by the largest message.
///
/// A record message (global message 20) with a position is a fix: its
/// timestamp (or a compressed timestamp header's), position (semicircles),
/// altitude and speed (the enhanced fields where given) and GPS accuracy.
/// Records without a position (before the receiver's first fix, an indoor
/// ride) are counted; course points (32) are waypoints for `decode
/// --waypoints`, else counted; every other message (laps, events, heart
/// rate…) is framed and passed over. Both byte orders, developer fields
/// and files chained one after another are read.
///
/// Bad input is reported where it lies, as byte offsets: a file CRC (or a
/// header CRC) that does not match its bytes, a data message whose local
/// type was never defined (the rest of that file's data cannot be framed
/// and is skipped to the end its header gives, where a chained file may
/// follow), a file cut short, bytes after the last file, a position out of
/// range or a time counted from the device's start.
public final class FITDecoder: FeedDecoder {
    private enum Stage {
        /// Waiting for a file header: the first, or the next of a chain.
        case header
        /// Reading messages up to the end of the data the header gave.
        case messages
        /// Passing over the rest of the data after a message that cannot be framed.
        case skipping
        /// Waiting for the file's CRC.
        case crc
        /// After bytes that are no FIT header: the rest is not read.
        case rejected
    }

    private var reader: FITMessageReader
    private var stage = Stage.header
    /// Input held until the message it begins is whole.
    private var buffer: [UInt8] = []
    /// The input offset of `buffer[0]`.
    private var bufferStart = 0
    private var inputLength = 0
    /// The layouts of the 16 local message types, as the file defined them.
    private var definitions = [FITMessageDefinition?](repeating: nil, count: 16)
    private var crc = FITCRC()
    /// The input offset where the file's data ends; `nil` when its header
    /// gave a data size of 0 (a file written without one).
    private var dataEnd: Int?
    private var files = 0
    private var rejectedAt = 0

    /// Creates a decoder; `collectWaypoints` turns course points into waypoints.
    public init(options: FeedDecodingOptions = .init()) {
        reader = FITMessageReader(collectWaypoints: options.collectWaypoints)
    }

    /// Always ``FeedFormat/fit``.
    public var format: FeedFormat? { .fit }

    /// Records without a position and course points that were not collected.
    public var statistics: FeedStatistics { reader.statistics }

    /// Decodes the next chunk.
    public func decode(_ chunk: UnsafeRawBufferPointer, into batch: inout FeedBatch) {
        inputLength += chunk.count
        guard stage != .rejected else { return }
        buffer.append(contentsOf: chunk.bindMemory(to: UInt8.self))
        let used = buffer.withUnsafeBufferPointer { advance(through: $0, into: &batch) }
        buffer.removeSubrange(0..<used)
        bufferStart += used
    }

    /// Ends the input: reports a file cut short or bytes after the last file.
    public func finish(into batch: inout FeedBatch) {
        let end = bufferStart + buffer.count
        switch stage {
        case .header where !buffer.isEmpty:
            if files == 0 {
                buffer.withUnsafeBufferPointer { reject($0, at: 0, into: &batch) }
            } else {
                report(
                    .garbage, at: bufferStart,
                    "\(buffer.count) bytes after the end of the FIT file are no FIT file; ignored", into: &batch)
            }
        case .messages, .skipping:
            if let dataEnd, end < dataEnd {
                report(
                    .truncated, at: end,
                    "the FIT file ends \(dataEnd - end) bytes before the end of its data (byte \(dataEnd)) that its "
                        + "header gives: it was cut short; the messages before were read", into: &batch)
            } else if dataEnd == nil, stage == .messages, buffer.count > 2 {
                report(.truncated, at: bufferStart, "the FIT file ends inside a message; it is skipped", into: &batch)
            }
        case .crc where buffer.count < 2:
            report(.truncated, at: end, "the FIT file ends without its CRC; the messages were read", into: &batch)
        case .rejected where files > 0:
            report(
                .garbage, at: rejectedAt,
                "\(inputLength - rejectedAt) bytes after the end of the FIT file are no FIT file; ignored", into: &batch)
        default:
            break
        }
        buffer = []
    }

    /// Reads what `bytes` (the held input) completes; returns how many bytes were used.
    private func advance(through bytes: UnsafeBufferPointer<UInt8>, into batch: inout FeedBatch) -> Int {
        var index = 0
        while true {
            let offset = bufferStart + index
            switch stage {
            case .header:
                // Judged on 12 bytes (the shortest header), however the reads cut them.
                guard bytes.count - index >= 12 else { return index }
                let size = Int(bytes[index])
                if size >= 12, isFITSignature(bytes, at: index + 8) {
                    guard bytes.count - index >= size else { return index }
                    startFile(UnsafeBufferPointer(rebasing: bytes[index..<(index + size)]), at: offset, into: &batch)
                    index += size
                    continue
                }
                reject(UnsafeBufferPointer(rebasing: bytes[index...]), at: offset, into: &batch)
                return bytes.count
            case .messages:
                if let dataEnd, offset >= dataEnd {
                    stage = .crc
                    continue
                }
                guard index < bytes.count else { return index }
                guard let length = messageLength(UnsafeBufferPointer(rebasing: bytes[index...]), at: offset, into: &batch)
                else {
                    if stage == .skipping { continue }
                    return index
                }
                if let dataEnd, offset + length > dataEnd {
                    report(
                        .garbage, at: offset,
                        "a message of \(length) bytes runs past the end of the data (byte \(dataEnd)) that the header "
                            + "gives: the file's data cannot be framed; skipped to its end", into: &batch)
                    stage = .skipping
                    continue
                }
                guard bytes.count - index >= length else { return index }
                let message = UnsafeBufferPointer(rebasing: bytes[index..<(index + length)])
                crc.update(message)
                read(message, at: offset, into: &batch)
                index += length
            case .skipping:
                guard let dataEnd else { return bytes.count }
                let count = min(bytes.count - index, dataEnd - offset)
                crc.update(UnsafeBufferPointer(rebasing: bytes[index..<(index + count)]))
                index += count
                guard bufferStart + index == dataEnd else { return index }
                stage = .crc
            case .crc:
                guard bytes.count - index >= 2 else { return index }
                let stored = UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
                if stored != crc.value {
                    report(
                        .badChecksum, at: offset,
                        "the FIT file's CRC is \(FITCRC.hex(stored)) but its bytes give \(FITCRC.hex(crc.value)): "
                            + "it was damaged; what could be read was kept", into: &batch)
                }
                index += 2
                stage = .header
            case .rejected:
                return bytes.count
            }
        }
    }

    /// Whether the 4 bytes at `index` are `.FIT`.
    private func isFITSignature(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        bytes[index] == 0x2E && bytes[index + 1] == 0x46 && bytes[index + 2] == 0x49 && bytes[index + 3] == 0x54
    }

    /// Begins a file of a chain at its header.
    private func startFile(_ header: UnsafeBufferPointer<UInt8>, at offset: Int, into batch: inout FeedBatch) {
        files += 1
        if header.count >= 14 {
            let stored = UInt16(header[12]) | UInt16(header[13]) << 8
            var headerCRC = FITCRC()
            headerCRC.update(UnsafeBufferPointer(rebasing: header[0..<12]))
            if stored != 0, stored != headerCRC.value {
                report(
                    .badChecksum, at: offset + 12,
                    "the FIT header's CRC is \(FITCRC.hex(stored)) but its bytes give \(FITCRC.hex(headerCRC.value)); "
                        + "read on", into: &batch)
            }
        }
        let dataSize = header[4...7].reversed().reduce(0) { $0 << 8 | Int($1) }
        dataEnd = dataSize == 0 ? nil : offset + header.count + dataSize
        crc = FITCRC()
        crc.update(header)
        definitions = Array(repeating: nil, count: 16)
        reader.startFile()
        stage = .messages
    }

    /// Ends reading at bytes that are no FIT header: the first file's, or
    /// those after a file's CRC (reported at the end, with their count).
    private func reject(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, into batch: inout FeedBatch) {
        stage = .rejected
        rejectedAt = offset
        guard files == 0 else { return }
        let shown = bytes.prefix(12).map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }
        report(
            .garbage, at: offset,
            "not a FIT file: it begins \(shown.joined(separator: " ")), where a FIT header has its length (12 or 14) "
                + "and \".FIT\" at bytes 8 to 11", into: &batch)
    }

    /// The length of the message that `bytes` begins, header byte included;
    /// `nil` while the bytes that tell it are not all there, or (reported,
    /// and the rest of the data skipped) when it uses an undefined local type.
    private func messageLength(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, into batch: inout FeedBatch) -> Int? {
        let header = bytes[0]
        if header & 0xC0 == 0x40 {
            let body = UnsafeBufferPointer(rebasing: bytes[1...])
            return FITMessageDefinition.length(of: body, hasDeveloperFields: header & 0x20 != 0).map { 1 + $0 }
        }
        let localType = header & 0x80 != 0 ? Int(header >> 5 & 0x03) : Int(header & 0x0F)
        if let definition = definitions[localType] { return 1 + definition.size }
        // Without the data's length, the last 2 bytes may be the file's CRC.
        if dataEnd == nil, bytes.count <= 2 { return nil }
        report(
            .garbage, at: offset,
            "a data message of local type \(localType) comes before any definition of that type: the rest of the "
                + "file's data cannot be framed; skipped" + (dataEnd.map { " to its end (byte \($0))" } ?? ""),
            into: &batch)
        stage = .skipping
        return nil
    }

    /// Reads a whole message: keeps a definition, hands a data message to the reader.
    private func read(_ message: UnsafeBufferPointer<UInt8>, at offset: Int, into batch: inout FeedBatch) {
        let header = message[0]
        let body = UnsafeBufferPointer(rebasing: message[1...])
        if header & 0xC0 == 0x40 {
            let definition = FITMessageDefinition(body, hasDeveloperFields: header & 0x20 != 0)
            if definition.globalNumber == nil {
                report(
                    .badField, at: offset,
                    "a definition gives byte order \(body[1]) (0 little-endian, 1 big-endian): "
                        + "its messages are skipped", into: &batch)
            }
            definitions[Int(header & 0x0F)] = definition
            return
        }
        let isCompressed = header & 0x80 != 0
        let localType = isCompressed ? Int(header >> 5 & 0x03) : Int(header & 0x0F)
        guard let definition = definitions[localType] else { return }
        reader.read(
            body, as: definition, timeOffset: isCompressed ? header & 0x1F : nil, byteOffset: offset, into: &batch)
    }

    private func report(_ code: FeedDiagnostic.Code, at offset: Int, _ message: String, into batch: inout FeedBatch) {
        batch.diagnostics.append(FeedDiagnostic(code, at: FeedLocation(line: 0, byteOffset: offset), message))
    }
}
