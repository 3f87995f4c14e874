/// One member of a JSON object, found by its key: a string or number as
/// ``JSONScalar``, anything else (an object, an array, a literal) as its
/// bytes.
enum JSONMember {
    case scalar(JSONScalar)
    case nested(UnsafeBufferPointer<UInt8>)

    /// The member named `key` of the object `bytes`; `nil` when the object
    /// has none or is not JSON. The last of repeated keys wins, as in most
    /// readers.
    static func named(_ key: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> JSONMember? {
        var lookup = Lookup(key: key)
        var scanner = JSONObjectScanner(bytes: bytes, position: 0)
        guard scanner.scanObject(into: &lookup) else { return nil }
        return lookup.found
    }

    /// The member at the end of a path of keys (`visit`, `topCandidate`,
    /// `placeLocation`), each but the last an object.
    static func at(_ path: StaticString..., in bytes: UnsafeBufferPointer<UInt8>) -> JSONMember? {
        var current = JSONMember.nested(bytes)
        for key in path {
            guard case .nested(let object) = current, let member = named(key, in: object) else { return nil }
            current = member
        }
        return current
    }

    /// The member's bytes when it is an object or array.
    var nested: UnsafeBufferPointer<UInt8>? {
        guard case .nested(let bytes) = self else { return nil }
        return bytes
    }

    /// Whether the member is `null`.
    var isNull: Bool {
        guard case .nested(let bytes) = self else { return false }
        return bytes.starts(with: "null".utf8)
    }

    /// The member when it is a string or a number.
    var scalar: JSONScalar? {
        guard case .scalar(let value) = self else { return nil }
        return value
    }

    private struct Lookup: JSONMemberSink {
        let key: StaticString
        var found: JSONMember?

        mutating func set(key: UnsafeBufferPointer<UInt8>, value: JSONScalar) {
            if key.spells(self.key) { found = .scalar(value) }
        }

        mutating func set(key: UnsafeBufferPointer<UInt8>, nested: UnsafeBufferPointer<UInt8>) {
            if key.spells(self.key) { found = .nested(nested) }
        }
    }
}
