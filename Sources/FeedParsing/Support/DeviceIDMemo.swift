import GeoCore

/// The last device name a decoder read, as bytes, and its ``DeviceID``:
/// consecutive records of a feed usually name the same device, and
/// comparing a few bytes costs less than making the name and interning it.
struct DeviceIDMemo {
    private var bytes: [UInt8] = []
    private var id: DeviceID?

    /// The ID of the name that the bytes `field` spell; `name` makes the
    /// name when they are not the last ones read.
    mutating func id(of field: UnsafeBufferPointer<UInt8>, name: () -> String) -> DeviceID {
        if let id, repeats(field) { return id }
        let id = DeviceID(name())
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: field)
        self.id = id
        return id
    }

    /// The ID of `name`.
    mutating func id(of name: String) -> DeviceID {
        var text = name
        return text.withUTF8 { field in id(of: field) { name } }
    }

    private func repeats(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        guard field.count == bytes.count else { return false }
        for index in field.indices where field[index] != bytes[index] { return false }
        return true
    }
}
