import GeoCore

/// Devices numbered from 0 in the order of their first fix, found without
/// hashing a name: a fix without a device is a device of its own, apart
/// from one named "" (as the feed's and the truth's device lists of a kept
/// evaluation have them).
struct DeviceNumbering: Sendable {
    private var named = DeviceTable<Int>(empty: -1)
    private var unnamed: Int?
    /// The devices by number.
    private(set) var devices: [String?] = []

    /// The number of the device `id` (`nil`: the unnamed device), and
    /// whether it is new.
    mutating func number(of id: DeviceID?) -> (number: Int, isNew: Bool) {
        guard let id else {
            if let unnamed { return (unnamed, false) }
            unnamed = devices.count
            devices.append(nil)
            return (devices.count - 1, true)
        }
        let (slot, isNew) = named.slot(of: id)
        guard isNew else { return (named[slot], false) }
        named[slot] = devices.count
        devices.append(id.name)
        return (devices.count - 1, true)
    }
}
