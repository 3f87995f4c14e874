import FeedParsing
import Foundation
import GeoCore
import Testing

/// A GPX document's encoding is read by Repeat, not left to libxml2: a byte
/// that is not valid in it costs one diagnostic and that byte, never the
/// rest of the file, and the result does not depend on how reads cut the input.
@Suite("GPX encodings")
struct GPXEncodingTests {
    /// A track of `count` points a line each, after a declaration of `encoding`.
    static func track(_ count: Int, encoding: String = "UTF-8") -> String {
        var text = "<?xml version=\"1.0\" encoding=\"\(encoding)\"?>\n<gpx version=\"1.1\"><trk><trkseg>\n"
        for k in 0..<count {
            text += "<trkpt lat=\"\(50 + Double(k) / 10_000)\" lon=\"8\"><time>2024-01-01T00:00:00Z</time></trkpt>\n"
        }
        return text + "</trkseg></trk></gpx>\n"
    }

    /// `bytes` with `inserted` put before the point on `line` (1-based).
    static func inserting(_ inserted: [UInt8], beforeLine line: Int, of bytes: [UInt8]) -> [UInt8] {
        var newlines = 0
        let at = bytes.firstIndex { byte in
            if newlines == line - 1 { return true }
            if byte == 0x0A { newlines += 1 }
            return false
        }!
        return Array(bytes[..<at]) + inserted + Array(bytes[at...])
    }

    @Test("bad UTF-8 (a CP1252 byte, a cut sequence, an overlong, a surrogate): every point kept, one diagnostic each")
    func badUTF8() {
        var bytes = Array(Self.track(3000).utf8)
        // Lines 3 + k hold point k; insert from the end so lines stay put.
        bytes = Self.inserting([0xF0, 0x9F, 0x98], beforeLine: 2900, of: bytes)
        bytes = Self.inserting([0xED, 0xA0, 0x80], beforeLine: 2000, of: bytes)
        bytes = Self.inserting([0xC0, 0x80], beforeLine: 1000, of: bytes)
        bytes = Self.inserting([0xE9], beforeLine: 10, of: bytes)
        let batch = decode(bytes, format: .gpx)
        #expect(batch.fixes.count == 3000)
        #expect(
            batch.diagnostics.map(\.description) == [
                "line 10: badXML: byte 0xE9 is not UTF-8; read as U+FFFD (\u{FFFD})",
                // C0 is never a lead byte; 80 is never one either.
                "line 1000: badXML: byte 0xC0 is not UTF-8; read as U+FFFD (\u{FFFD})",
                "line 1000: badXML: byte 0x80 is not UTF-8; read as U+FFFD (\u{FFFD})",
                // ED A0 is the start of a surrogate: ED alone is the maximal subpart.
                "line 2000: badXML: byte 0xED is not UTF-8; read as U+FFFD (\u{FFFD})",
                "line 2000: badXML: byte 0xA0 is not UTF-8; read as U+FFFD (\u{FFFD})",
                "line 2000: badXML: byte 0x80 is not UTF-8; read as U+FFFD (\u{FFFD})",
                "line 2900: badXML: bytes 0xF0 0x9F 0x98 are not UTF-8; read as U+FFFD (\u{FFFD})",
            ], "\(batch.diagnostics)")
    }

    @Test("the same bytes decode alike however reads cut them", arguments: [1, 3, 4093, 65_536, 100_000])
    func chunkingDoesNotMatter(chunkSize: Int) {
        var bytes = Array(Self.track(4000).utf8)
        bytes = Self.inserting([0xE2, 0x82], beforeLine: 3000, of: bytes)
        bytes = Self.inserting([0xE9], beforeLine: 1500, of: bytes)
        let whole = decode(bytes, format: .gpx)
        let cut = decode(bytes, format: .gpx, chunkSizes: repeatElement(chunkSize, count: bytes.count / chunkSize + 1))
        #expect(whole.fixes.count == 4000)
        #expect(cut.fixes == whole.fixes)
        #expect(cut.diagnostics == whole.diagnostics)
        #expect(whole.diagnostics.map(\.location.line) == [1500, 3000])
    }

    @Test("a sequence cut short by the end of the input is reported")
    func cutAtTheEnd() {
        let bytes = Array(Self.track(2).utf8) + [0xE2, 0x82]
        let batch = decode(bytes, format: .gpx, chunkSizes: [bytes.count - 1])
        #expect(batch.fixes.count == 2)
        // U+FFFD after the root element is also content libxml2 does not expect.
        #expect(
            batch.diagnostics.map(\.message) == [
                "not well-formed XML: Extra content at the end of the document",
                "bytes 0xE2 0x82 are not UTF-8; read as U+FFFD (\u{FFFD})",
            ])
    }

    @Test("declared single-byte encodings are read as declared", arguments: ["windows-1252", "ISO-8859-1", "latin1"])
    func singleByteEncodings(encoding: String) throws {
        let text = """
            <?xml version="1.0" encoding="\(encoding)"?>
            <gpx><wpt lat="48.2" lon="16.4"><name>Caf\u{E9} M\u{FC}ller</name></wpt>
            <trk><trkseg><trkpt lat="48.2" lon="16.4"/></trkseg></trk></gpx>
            """
        let bytes = text.unicodeScalars.map { UInt8($0.value) }
        let batch = decode(bytes, format: .gpx, options: FeedDecodingOptions(collectWaypoints: true))
        #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics)")
        #expect(batch.waypoints.map(\.name) == ["Café Müller"])
        #expect(batch.fixes.count == 1)
    }

    @Test("CP1252's euro sign and curly quotes are not Latin-1's control characters")
    func windows1252() {
        let bytes =
            Array("<?xml version=\"1.0\" encoding=\"windows-1252\"?><gpx><wpt lat=\"1\" lon=\"2\"><name>".utf8)
            + [0x80, 0x20, 0x93, 0x61, 0x94] + Array("</name></wpt></gpx>".utf8)
        let batch = decode(bytes, format: .gpx, options: FeedDecodingOptions(collectWaypoints: true))
        #expect(batch.waypoints.map(\.name) == ["€ “a”"])
    }

    @Test("UTF-16 with and without a byte-order mark; half a surrogate pair is one diagnostic", arguments: [true, false])
    func utf16(littleEndian: Bool) throws {
        let text = Self.track(3000, encoding: "UTF-16")
        var bytes: [UInt8] = littleEndian ? [0xFF, 0xFE] : []
        for unit in text.utf16 {
            bytes += littleEndian ? [UInt8(unit & 0xFF), UInt8(unit >> 8)] : [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
        let clean = decode(bytes, format: .gpx)
        #expect(clean.diagnostics.isEmpty, "\(clean.diagnostics)")
        #expect(clean.fixes.count == 3000)
        #expect(clean.fixes == decode(Array(text.utf8), format: .gpx).fixes)
        // A high surrogate with no low one, before line 1700's point.
        let newline: [UInt8] = littleEndian ? [0x0A, 0x00] : [0x00, 0x0A]
        var lines = 1
        var at = littleEndian ? 2 : 0
        while lines < 1700 {
            if Array(bytes[at..<at + 2]) == newline { lines += 1 }
            at += 2
        }
        let lone: [UInt8] = littleEndian ? [0x00, 0xD8] : [0xD8, 0x00]
        let broken = Array(bytes[..<at]) + lone + Array(bytes[at...])
        let batch = decode(broken, format: .gpx, chunkSizes: repeatElement(4095, count: 100))
        #expect(batch.fixes.count == 3000)
        #expect(batch.diagnostics.count == 1, "\(batch.diagnostics)")
        #expect(batch.diagnostics.first?.location.line == 1700)
        #expect(
            batch.diagnostics.first?.message.hasSuffix("are not UTF-16\(littleEndian ? "LE" : "BE"); read as U+FFFD (\u{FFFD})")
                == true)
    }

    @Test("an encoding this system does not know is said once, and the document is read as UTF-8")
    func unknownEncoding() {
        let batch = decode(Self.track(3, encoding: "x-klingon"), format: .gpx)
        #expect(batch.fixes.count == 3)
        #expect(
            batch.diagnostics.map(\.description) == [
                "line 1: badXML: the document declares encoding 'x-klingon', which this system cannot read; read as UTF-8"
            ])
    }

    @Test("UTF-16 declared over ASCII bytes is read as UTF-8, as libxml2 does")
    func mislabelledUTF16() {
        let batch = decode(Self.track(3, encoding: "UTF-16"), format: .gpx)
        #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics)")
        #expect(batch.fixes.count == 3)
    }

    @Test("more than 100 bad bytes: the first 100 are reported, the rest counted")
    func manyBadBytes() {
        var text = "<gpx><trk><trkseg>"
        for _ in 0..<150 { text += "<trkpt lat=\"1\" lon=\"2\"><name>\u{E9}</name></trkpt>\n" }
        text += "</trkseg></trk></gpx>"
        let decoder = makeFeedDecoder(format: .gpx)
        let batch = decoder.decodeAll(text.unicodeScalars.map { UInt8($0.value) })
        #expect(batch.fixes.count == 150)
        #expect(batch.diagnostics.count == 100)
        #expect(decoder.statistics.ignored["further encoding errors"] == 50)
    }
}
