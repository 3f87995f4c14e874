/// Tells a feed's format from its first records.
///
/// A file that opens with a FIT header (`.FIT` at bytes 8 to 11) is FIT.
/// After a byte-order mark, blanks and `#` comment lines, a JSON document
/// whose first key is `"locations"` is Google Takeout's location history,
/// one whose first key is `"semanticSegments"`, `"rawSignals"` or
/// `"userLocationProfile"`, or an array whose first element's first key is
/// `"startTime"` or `"endTime"`, is Google's on-device Timeline export, and
/// a document that opens with `<` is XML: KML when its root element is
/// `<kml>`, TCX when it is `<TrainingCenterDatabase>`, else GPX (whose
/// decoder says what it is if it is not). Otherwise the feed is read line
/// by line until a line is a record: one that starts with `$` or `!` (or
/// holds `$`+5 letters+`,` further on) is NMEA, a gpsd report of class
/// `TPV` is gpsd JSON, and a CSV header that names a position's columns (or
/// a row that opens with two numbers, when no text came before it) is CSV.
/// gpsd's other JSON lines (`VERSION`, `DEVICES`) wait for the reports
/// after them. Any other line is text before the feed, like a receiver's
/// start-up banner, and decides nothing: the decision waits for whole
/// lines, so a file and a pipe of the same bytes, however the reads cut
/// them, are decided alike.
public enum FeedSniffer {
    /// How many bytes of a file are read to check that it is a feed at all.
    public static let decisiveLength = 4096

    /// The format, and the lines of text before the first record.
    struct Decision: Equatable {
        var format: FeedFormat
        /// The byte ranges (in the UTF-8 text) of the lines that were
        /// neither records, comments nor blank: a banner.
        var banner: [Range<Int>] = []
    }

    /// The format of a prefix of a feed, or `nil` when more bytes are
    /// needed (`isComplete` says there are no more).
    public static func detect(_ prefix: [UInt8], isComplete: Bool) -> FeedFormat? {
        if isFIT(prefix) { return .fit }
        var transcoder = TextTranscoder()
        var text: [UInt8] = []
        prefix.withUnsafeBytes { transcoder.transcode($0) { text.append(contentsOf: $0) } }
        if isComplete || transcoder.encoding != .utf8 { transcoder.finish { text.append(contentsOf: $0) } }
        return decide(text, isComplete: isComplete)?.format
    }

    /// Whether `prefix` opens with a FIT file header: its length (12 or
    /// more) and `.FIT` at bytes 8 to 11. FIT is binary, so this is read
    /// before any text decoding.
    static func isFIT(_ prefix: [UInt8]) -> Bool {
        prefix.count >= 12 && prefix[0] >= 12 && prefix[8] == 0x2E && prefix[9] == 0x46 && prefix[10] == 0x49
            && prefix[11] == 0x54
    }

    /// The decision on UTF-8 `text`, or `nil` while a line it needs is unfinished.
    static func decide(_ text: [UInt8], isComplete: Bool) -> Decision? {
        var decision = Decision(format: .nmea)
        var sawJSON = false
        var i = 0
        var isFirstSignificant = true
        while i < text.count {
            let start = i
            while i < text.count, text[i] == 0x20 || text[i] == 0x09 || text[i] == 0x00 { i += 1 }
            guard i < text.count else { break }
            if text[i] == 0x0A || text[i] == 0x0D {
                i += 1
                continue
            }
            let first = text[i]
            var end = i
            while end < text.count, text[end] != 0x0A, text[end] != 0x0D { end += 1 }
            if first == 0x23 {
                i = end
                continue
            }
            if first == 0x7B || first == 0x5B, isFirstSignificant {
                switch (opensTakeoutHistory(text[i...]), opensTimeline(text[i...])) {
                case (true?, _): return Decision(format: .takeout)
                case (_, true?): return Decision(format: .timeline)
                case (nil, _) where !isComplete, (_, nil) where !isComplete: return nil
                default: break
                }
            }
            if first == 0x3C, isFirstSignificant {
                switch XMLRootElement(text[i...]) {
                case .named("kml"): return Decision(format: .kml)
                case .named("TrainingCenterDatabase"): return Decision(format: .tcx)
                case .unfinished where !isComplete: return nil
                default: return Decision(format: .gpx)
                }
            }
            isFirstSignificant = false
            if first == 0x24 || first == 0x21 { return decision.with(.nmea) }
            // Any other line is judged whole.
            if end == text.count, !isComplete { return nil }
            let content = text[i..<end]
            i = end
            if first == 0x7B {
                if contains(content, "\"TPV\"") { return decision.with(.gpsd) }
                sawJSON = true
            } else if containsNMEASentence(content) {
                return decision.with(.nmea)
            } else if let shape = content.withUnsafeBufferPointer(CSVRecordShape.init) {
                if shape == .header { return decision.with(.csv) }
                // The tail of a sentence a stream was opened in the middle
                // of (`0.00,0.00,080407,,,A*6E`) when a sentence follows.
                guard let next = nextLine(in: text, after: end, isComplete: isComplete) else { return nil }
                if next.first == 0x24 || next.first == 0x21 || containsNMEASentence(next) {
                    decision.banner.append(start..<end)
                    return decision.with(.nmea)
                }
                // After text, numbers are more likely rows under a header
                // the CSV decoder should refuse than rows after a banner.
                return Decision(format: .csv)
            } else if !sawJSON {
                decision.banner.append(start..<end)
            }
        }
        guard isComplete else { return nil }
        // No record at all: gpsd JSON if it had JSON, else the CSV decoder
        // says what it cannot read (an empty feed is NMEA: nothing to say).
        if sawJSON { return Decision(format: .gpsd) }
        return Decision(format: isFirstSignificant ? .nmea : .csv)
    }

    /// Whether a JSON document is Google Takeout's location history: its
    /// first key is `"locations"` (or, in old exports,
    /// `"somePointsHidden"`); `nil` while the key is unfinished.
    static func opensTakeoutHistory(_ document: ArraySlice<UInt8>) -> Bool? {
        guard document.first == 0x7B else { return false }
        return firstKey(of: document.dropFirst(), isOneOf: ["locations", "somePointsHidden"])
    }

    /// Whether a JSON document is Google's on-device Timeline export: an
    /// object whose first key is one of
    /// ``GoogleLocationExports/timelineKeys`` (Android), or an array whose
    /// first element is an object whose first key is one of
    /// ``GoogleLocationExports/segmentKeys`` (iOS); `nil` while that is
    /// unfinished.
    static func opensTimeline(_ document: ArraySlice<UInt8>) -> Bool? {
        switch document.first {
        case 0x7B: return firstKey(of: document.dropFirst(), isOneOf: GoogleLocationExports.timelineKeys)
        case 0x5B:
            let element = document.dropFirst().drop(while: isJSONBlank)
            guard let open = element.first else { return nil }
            guard open == 0x7B else { return false }
            return firstKey(of: element.dropFirst(), isOneOf: GoogleLocationExports.segmentKeys)
        default: return false
        }
    }

    /// Whether the object whose members begin at `members` has one of
    /// `names` for its first key; `nil` while the key is unfinished.
    private static func firstKey(of members: ArraySlice<UInt8>, isOneOf names: [String]) -> Bool? {
        let key = members.drop(while: isJSONBlank)
        var isUnfinished = false
        for name in names {
            let expected = Array("\"\(name)\"".utf8)
            if key.starts(with: expected) { return true }
            if key.count < expected.count, expected.starts(with: key) { isUnfinished = true }
        }
        return isUnfinished ? nil : false
    }

    private static func isJSONBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The next line that is not blank after `index`, without its leading
    /// blanks: empty at the end of a complete text, `nil` while it is
    /// unfinished.
    private static func nextLine(in text: [UInt8], after index: Int, isComplete: Bool) -> ArraySlice<UInt8>? {
        var i = index
        while i < text.count, text[i] == 0x0A || text[i] == 0x0D || text[i] == 0x20 || text[i] == 0x09 || text[i] == 0x00 {
            i += 1
        }
        var end = i
        while end < text.count, text[end] != 0x0A, text[end] != 0x0D { end += 1 }
        // A line that opens a sentence decides at once; any other, once whole.
        let opensSentence = i < end && (text[i] == 0x24 || text[i] == 0x21)
        if end == text.count, !isComplete, !opensSentence { return nil }
        return text[i..<end]
    }

    private static func contains(_ text: ArraySlice<UInt8>, _ needle: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard text.count >= pattern.count else { return false }
        for start in text.startIndex...(text.endIndex - pattern.count) where text[start] == pattern[0] {
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

extension FeedSniffer.Decision {
    /// This decision with the format of the first record.
    fileprivate func with(_ format: FeedFormat) -> Self {
        var decided = self
        decided.format = format
        return decided
    }
}

/// A decoder that buffers the first bytes, detects the format with
/// ``FeedSniffer``, then hands everything to the right decoder.
///
/// Lines of text before the first record (a receiver's start-up banner)
/// are counted as ignored and handed on as blanks, so that the decoder's
/// lines and offsets stay those of the input. The buffer is bounded: a
/// stream that opens with more than ``maximumPrefix`` bytes without a
/// record is decided on those bytes as if they were all, so memory does not
/// grow with the junk.
final class SniffingDecoder: FeedDecoder {
    /// The most bytes held before the format is decided.
    static let maximumPrefix = 1 << 20

    private let options: FeedDecodingOptions
    private var prefix: [UInt8] = []
    private var inner: (any FeedDecoder)?
    private var nextCheck = 16
    private var bannerLines = 0

    init(options: FeedDecodingOptions) {
        self.options = options
    }

    var format: FeedFormat? { inner?.format }

    var statistics: FeedStatistics {
        var statistics = inner?.statistics ?? FeedStatistics()
        if bannerLines > 0 { statistics.ignore("banner line", count: bannerLines) }
        return statistics
    }

    func decode(_ chunk: UnsafeRawBufferPointer, into batch: inout FeedBatch) {
        if let inner {
            inner.decode(chunk, into: &batch)
            return
        }
        prefix.append(contentsOf: chunk.bindMemory(to: UInt8.self))
        guard prefix.count >= nextCheck else { return }
        nextCheck = min(prefix.count * 2, Self.maximumPrefix)
        if let decision = decide(isComplete: prefix.count >= Self.maximumPrefix) {
            start(decision, into: &batch)
        }
    }

    func release(into batch: inout FeedBatch) { inner?.release(into: &batch) }

    func finish(into batch: inout FeedBatch) {
        if inner == nil {
            start(decide(isComplete: true) ?? FeedSniffer.Decision(format: .nmea), into: &batch)
        }
        inner?.finish(into: &batch)
    }

    /// The decision on the held bytes; banner ranges only for UTF-8 input,
    /// where they are ranges of the held bytes too (after a BOM).
    private func decide(isComplete: Bool) -> FeedSniffer.Decision? {
        if FeedSniffer.isFIT(prefix) { return FeedSniffer.Decision(format: .fit) }
        var transcoder = TextTranscoder()
        var text: [UInt8] = []
        prefix.withUnsafeBytes { transcoder.transcode($0) { text.append(contentsOf: $0) } }
        if isComplete || transcoder.encoding != .utf8 { transcoder.finish { text.append(contentsOf: $0) } }
        guard var decision = FeedSniffer.decide(text, isComplete: isComplete) else { return nil }
        if transcoder.encoding != .utf8 {
            decision.banner = []
        } else if prefix.starts(with: [0xEF, 0xBB, 0xBF]) {
            decision.banner = decision.banner.map { ($0.lowerBound + 3)..<($0.upperBound + 3) }
        }
        return decision
    }

    private func start(_ decision: FeedSniffer.Decision, into batch: inout FeedBatch) {
        let decoder = makeFeedDecoder(format: decision.format, options: options)
        inner = decoder
        var held = prefix
        prefix = []
        for line in decision.banner {
            held.replaceSubrange(line, with: repeatElement(0x20, count: line.count))
        }
        bannerLines = decision.banner.count
        decoder.decode(held, into: &batch)
    }
}
