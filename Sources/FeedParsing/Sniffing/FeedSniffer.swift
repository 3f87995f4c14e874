/// Tells a feed's format from its first bytes.
///
/// After a byte-order mark, blanks and `#` comment lines, the first
/// significant character decides: `<` is GPX, `$` or `!` is NMEA, `{`
/// is gpsd JSON if a `"TPV"` report follows (else NMEA if sentences
/// follow: gpsd's logs start with a few JSON control lines). Anything else (a CSV header, a logger's banner) needs
/// more text: NMEA if a line further on starts with `$`+5 letters+`,`,
/// else CSV.
public enum FeedSniffer {
    /// How many bytes are enough to decide when the first character does not.
    public static let decisiveLength = 4096

    /// The format of a prefix of a feed, or `nil` when more bytes are
    /// needed (`isComplete` says there are no more).
    public static func detect(_ prefix: [UInt8], isComplete: Bool) -> FeedFormat? {
        var transcoder = TextTranscoder()
        var text: [UInt8] = []
        prefix.withUnsafeBytes { transcoder.transcode($0) { text.append(contentsOf: $0) } }
        if isComplete || transcoder.encoding != .utf8 { transcoder.finish { text.append(contentsOf: $0) } }
        var i = 0
        var atLineStart = true
        while i < text.count {
            let b = text[i]
            switch b {
            case 0x20, 0x09, 0x0A, 0x0D, 0x00:
                atLineStart = b == 0x0A || b == 0x0D || (atLineStart && b != 0x00)
                i += 1
            case 0x23 where atLineStart:
                while i < text.count, text[i] != 0x0A, text[i] != 0x0D { i += 1 }
                if i == text.count, !isComplete { return nil }
            case 0x3C: return .gpx
            case 0x7B:
                // gpsd's own logs embed a few JSON control lines among NMEA;
                // a JSON feed has TPV reports.
                if contains(text, "\"TPV\"") { return .gpsd }
                guard isComplete || text.count >= decisiveLength else { return nil }
                return containsNMEASentence(text[i...]) ? .nmea : .gpsd
            case 0x24, 0x21: return .nmea
            default:
                guard isComplete || text.count >= decisiveLength else { return nil }
                return containsNMEASentence(text[i...]) ? .nmea : .csv
            }
        }
        return isComplete ? .nmea : nil
    }

    private static func contains(_ text: [UInt8], _ needle: StaticString) -> Bool {
        let pattern = Array(UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount))
        guard text.count >= pattern.count else { return false }
        for start in 0...(text.count - pattern.count) where text[start] == pattern[0] {
            if text[start..<(start + pattern.count)].elementsEqual(pattern) { return true }
        }
        return false
    }

    private static func containsNMEASentence(_ text: ArraySlice<UInt8>) -> Bool {
        var i = text.startIndex
        while i + 7 <= text.endIndex {
            if text[i] == 0x24 {
                let address = text[(i + 1)..<(i + 6)]
                if address.allSatisfy({ ($0 &- 0x41) < 26 || ($0 &- 0x30) < 10 }), text[i + 6] == 0x2C { return true }
            }
            i += 1
        }
        return false
    }
}

/// A decoder that buffers the first bytes, detects the format with
/// ``FeedSniffer``, then hands everything to the right decoder.
///
/// The buffer is bounded: a stream that opens with more than
/// ``maximumPrefix`` bytes of blanks, NULs or `#` lines is decided on
/// those bytes as if they were all (NMEA, which skips what it cannot
/// read line by line), so memory does not grow with the junk.
final class SniffingDecoder: FeedDecoder {
    /// The most bytes held before the format is decided.
    static let maximumPrefix = 1 << 20

    private let options: FeedDecodingOptions
    private var prefix: [UInt8] = []
    private var inner: (any FeedDecoder)?
    private var nextCheck = 16

    init(options: FeedDecodingOptions) {
        self.options = options
    }

    var format: FeedFormat? { inner?.format }

    var statistics: FeedStatistics { inner?.statistics ?? FeedStatistics() }

    func decode(_ chunk: UnsafeRawBufferPointer, into batch: inout FeedBatch) {
        if let inner {
            inner.decode(chunk, into: &batch)
            return
        }
        prefix.append(contentsOf: chunk.bindMemory(to: UInt8.self))
        guard prefix.count >= nextCheck else { return }
        nextCheck = min(prefix.count * 2, Self.maximumPrefix)
        if let format = FeedSniffer.detect(prefix, isComplete: false) {
            start(format, into: &batch)
        } else if prefix.count >= Self.maximumPrefix {
            start(FeedSniffer.detect(prefix, isComplete: true) ?? .nmea, into: &batch)
        }
    }

    func finish(into batch: inout FeedBatch) {
        if inner == nil {
            start(FeedSniffer.detect(prefix, isComplete: true) ?? .nmea, into: &batch)
        }
        inner?.finish(into: &batch)
    }

    private func start(_ format: FeedFormat, into batch: inout FeedBatch) {
        let decoder = makeFeedDecoder(format: format, options: options)
        inner = decoder
        let held = prefix
        prefix = []
        decoder.decode(held, into: &batch)
    }
}
