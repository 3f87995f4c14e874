import GeoCore

/// The last device name a decoder read and its ``DeviceID``: consecutive
/// records of a feed usually name the same device, and comparing the name
/// costs less than interning it. (The CSV decoder, whose records may take
/// turns among many devices, gathers its names instead:
/// ``PendingDeviceNames``.)
struct DeviceIDMemo {
    private var last: (name: String, id: DeviceID)?

    /// The ID of `name`.
    mutating func id(of name: String) -> DeviceID {
        if let last, last.name == name { return last.id }
        let id = DeviceID(name)
        last = (name, id)
        return id
    }
}
