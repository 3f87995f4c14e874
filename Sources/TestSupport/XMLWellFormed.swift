import CLibXML2

/// Parses text as XML with libxml2 (no network, no DTD loading), for tests
/// of generated documents such as the HTML reports, which are written to
/// be well-formed XML as well.
public enum XMLWellFormed {
    /// A document that is not well-formed: libxml2's message and line.
    public struct Failure: Error, CustomStringConvertible {
        /// libxml2's message.
        public var message: String
        /// The line it points to.
        public var line: Int

        public var description: String { "line \(line): \(message)" }
    }

    /// The names of every element of `text`, in document order.
    /// - Throws: ``Failure`` when `text` is not well-formed XML.
    public static func elementNames(_ text: String) throws -> [String] {
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let bytes = Array(text.utf8)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                xmlReadMemory($0, Int32(buffer.count), "document.xml", "UTF-8", options)
            }
        }
        guard let document else {
            let error = xmlGetLastError()
            let message = error?.pointee.message.map { String(cString: $0) } ?? "not well-formed"
            throw Failure(
                message: message.trimmingTrailingWhitespace, line: Int(error?.pointee.line ?? 0))
        }
        defer { xmlFreeDoc(document) }
        var names: [String] = []
        func visit(_ node: xmlNodePtr?) {
            var node = node
            while let current = node {
                if current.pointee.type == XML_ELEMENT_NODE, let name = current.pointee.name {
                    names.append(String(cString: name))
                    visit(current.pointee.children)
                }
                node = current.pointee.next
            }
        }
        visit(xmlDocGetRootElement(document))
        return names
    }
}

extension String {
    fileprivate var trimmingTrailingWhitespace: String {
        var text = self
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}
