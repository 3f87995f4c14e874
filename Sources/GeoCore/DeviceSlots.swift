/// Dense numbers for device names, in order of first sight, so that
/// per-device state can live in an array; the last name looked up is
/// remembered, since a feed usually carries one device.
package struct DeviceSlots: Sendable {
    private var slots: [String: Int] = [:]
    private var last: (name: String, slot: Int)?

    /// No devices yet.
    package init() {}

    /// The slot of `name`, numbering it next if it is new (`isNew` then
    /// tells the caller to append its state).
    package mutating func slot(of name: String) -> (slot: Int, isNew: Bool) {
        if let last, last.name == name { return (last.slot, false) }
        let known = slots[name]
        let slot = known ?? slots.count
        if known == nil { slots[name] = slot }
        last = (name, slot)
        return (slot, known == nil)
    }

    /// The slot of a device seen before.
    package func existingSlot(of name: String) -> Int? { slots[name] }

    /// Every device and its slot, by name.
    package var byName: [(name: String, slot: Int)] {
        slots.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
