/// Per-device state in a dense array, found by device (``DeviceID``): the
/// storage of every stage that keeps state per device.
///
/// Devices get slots in order of first sight. A removed device's slot is
/// given to the next new device, so the states grow with the most devices
/// present at once, not with every device ever seen (``remove(_:)`` is how
/// a stage lets an idle device go). A free slot holds `empty`, so it keeps
/// no memory.
///
/// A device's slot is found by its ``DeviceID/number``: an array of one
/// 32-bit word per number up to the highest seen, the slot + 1 or 0, which
/// is about 4 bytes per device the process has named (the names themselves
/// take about 100). With 100 000 devices taking turns, the hash table this
/// replaced cost two cache misses per lookup, its probe and the check of
/// the ID it found; this is one read from an array of 4 bytes a device.
/// The last device looked up is remembered, since a feed usually carries
/// one device.
public struct DeviceTable<State: Sendable>: Sendable {
    /// Slot + 1 by device number; 0 where the device has no slot.
    @usableFromInline var slotsByNumber: [UInt32] = []
    /// Each slot's device; `nil` where the slot is free.
    @usableFromInline var ids: [DeviceID?] = []
    @usableFromInline var states: [State] = []
    @usableFromInline var free: [Int] = []
    @usableFromInline var last: (id: DeviceID, slot: Int)?
    @usableFromInline let empty: State
    /// ``DeviceID/unnamed``, read once: a static's every read goes
    /// through its lazy initializer's check, twice a fix.
    @usableFromInline let unnamed = DeviceID.unnamed

    /// No devices; `empty` is the state of a new device.
    @inlinable public init(empty: State) { self.empty = empty }

    /// The number of devices present.
    @inlinable public var count: Int { ids.count - free.count }

    /// The slot of `id`, made with the empty state on first sight
    /// (`isNew` then says so).
    @inlinable public mutating func slot(of id: DeviceID) -> (slot: Int, isNew: Bool) {
        if let last, last.id == id { return (last.slot, false) }
        if let known = indexedSlot(of: id) {
            last = (id, known)
            return (known, false)
        }
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            ids[slot] = id
        } else {
            slot = states.count
            states.append(empty)
            ids.append(id)
        }
        let number = Int(id.number)
        if number >= slotsByNumber.count {
            slotsByNumber.append(
                contentsOf: repeatElement(0, count: max(number + 1, 2 * slotsByNumber.count, 16) - slotsByNumber.count))
        }
        slotsByNumber[number] = UInt32(truncatingIfNeeded: slot + 1)
        last = (id, slot)
        return (slot, true)
    }

    /// The slot of `id` by its number, or `nil`.
    @inlinable func indexedSlot(of id: DeviceID) -> Int? {
        let number = Int(id.number)
        guard number < slotsByNumber.count else { return nil }
        let entry = slotsByNumber[number]
        return entry == 0 ? nil : Int(entry) - 1
    }

    /// The slot of the device `id`, of the unnamed device for `nil` (see
    /// ``slot(of:)-(DeviceID)``).
    @inlinable public mutating func slot(of id: DeviceID?) -> (slot: Int, isNew: Bool) { slot(of: id ?? unnamed) }

    /// The slot of the device `name` (see ``slot(of:)-(DeviceID)``).
    @inlinable public mutating func slot(of name: String) -> (slot: Int, isNew: Bool) { slot(of: DeviceID(name)) }

    /// The slot of a device present, or `nil`.
    @inlinable public func existingSlot(of id: DeviceID) -> Int? {
        if let last, last.id == id { return last.slot }
        return indexedSlot(of: id)
    }

    /// The slot of the device `id` (the unnamed device for `nil`) if present, or `nil`.
    @inlinable public func existingSlot(of id: DeviceID?) -> Int? { existingSlot(of: id ?? unnamed) }

    /// The slot of the device `name` if present, or `nil`.
    @inlinable public func existingSlot(of name: String) -> Int? { existingSlot(of: DeviceID(name)) }

    /// The state in `slot`, changed in place.
    @inlinable public subscript(slot: Int) -> State {
        get { states[slot] }
        _modify { yield &states[slot] }
    }

    /// Swaps the state in `slot` with `state`: a caller takes a state out,
    /// changes it while it is uniquely referenced, and puts it back.
    @inlinable public mutating func exchange(_ slot: Int, with state: inout State) {
        swap(&state, &states[slot])
    }

    /// Removes `id`, returning its state; its slot goes to the next new device.
    @inlinable public mutating func remove(_ id: DeviceID) -> State? {
        guard let slot = indexedSlot(of: id) else { return nil }
        slotsByNumber[Int(id.number)] = 0
        ids[slot] = nil
        if last?.id == id { last = nil }
        var state = empty
        swap(&state, &states[slot])
        free.append(slot)
        return state
    }

    /// Removes the device `name` (see ``remove(_:)-(DeviceID)``).
    @inlinable public mutating func remove(_ name: String) -> State? { remove(DeviceID(name)) }

    /// Every device present and its slot, by name.
    @inlinable public var byName: [(name: String, slot: Int)] {
        ids.enumerated().compactMap { slot, id in id.map { ($0.name, slot) } }.sorted { $0.name < $1.name }
    }

    /// The devices whose state passes `isIncluded`, in no particular order.
    @inlinable public func ids(where isIncluded: (State) -> Bool) -> [DeviceID] {
        ids.indices.compactMap { slot in ids[slot].flatMap { isIncluded(states[slot]) ? $0 : nil } }
    }
}
