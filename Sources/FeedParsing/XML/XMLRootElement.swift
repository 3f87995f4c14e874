/// The root element of an XML document, told from its first bytes.
enum XMLRootElement: Equatable {
    /// The root element's local name (its namespace prefix dropped): `gpx`, `kml`.
    case named(String)
    /// The bytes end before the root element's name does.
    case unfinished
    /// The bytes are not XML: something other than markup comes first.
    case notXML

    /// The root element of `bytes` (UTF-8), skipping a byte-order mark,
    /// blanks, the declaration, comments, processing instructions and a
    /// DOCTYPE.
    init(_ bytes: some RandomAccessCollection<UInt8>) {
        let bytes = Array(bytes)
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while true {
            while i < bytes.count, XMLLeafText.isBlank(bytes[i]) { i += 1 }
            guard i + 1 < bytes.count else {
                self = i < bytes.count && bytes[i] != 0x3C ? .notXML : .unfinished
                return
            }
            guard bytes[i] == 0x3C else {
                self = .notXML
                return
            }
            let next = bytes[i + 1]
            if next == 0x3F || next == 0x21 {
                // <?…?>, <!--…-->, <!DOCTYPE …>: skip to the closing '>'.
                let closing: [UInt8] = bytes[i...].starts(with: Array("<!--".utf8)) ? Array("-->".utf8) : [0x3E]
                guard let end = Self.firstIndex(of: closing, in: bytes, from: i + 2) else {
                    self = .unfinished
                    return
                }
                i = end + closing.count
                continue
            }
            var end = i + 1
            while end < bytes.count, !XMLLeafText.isBlank(bytes[end]), bytes[end] != 0x3E, bytes[end] != 0x2F { end += 1 }
            guard end < bytes.count else {
                self = .unfinished
                return
            }
            let name = bytes[(i + 1)..<end]
            guard !name.isEmpty else {
                self = .notXML
                return
            }
            let local = name.split(separator: 0x3A).last ?? name
            self = .named(String(decoding: local, as: UTF8.self))
            return
        }
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var i = start
        while i + needle.count <= bytes.count {
            if bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
