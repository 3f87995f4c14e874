/// Per-device state in a dense array, found by device (``DeviceID``): the
/// storage of every stage that keeps state per device.
///
/// Devices get slots in order of first sight. A removed device's slot is
/// given to the next new device, so the array grows with the most devices
/// present at once, not with every device ever seen (``remove(_:)`` is how
/// a stage lets an idle device go). The last device looked up is
/// remembered, since a feed usually carries one device; the others are
/// found through a ``DeviceNameIndex``.
/// A free slot holds `empty`, so it keeps no memory.
public struct DeviceTable<State: Sendable>: Sendable {
    @usableFromInline var index = DeviceNameIndex()
    /// Each slot's device; `nil` where the slot is free.
    @usableFromInline var ids: [DeviceID?] = []
    @usableFromInline var states: [State] = []
    @usableFromInline var free: [Int] = []
    @usableFromInline var last: (id: DeviceID, slot: Int)?
    @usableFromInline let empty: State

    /// No devices; `empty` is the state of a new device.
    @inlinable public init(empty: State) { self.empty = empty }

    /// The number of devices present.
    @inlinable public var count: Int { ids.count - free.count }

    /// The slot of `id`, made with the empty state on first sight
    /// (`isNew` then says so).
    @inlinable public mutating func slot(of id: DeviceID) -> (slot: Int, isNew: Bool) {
        if let last, last.id == id { return (last.slot, false) }
        if let known = index.slot(of: id, ids: ids) {
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
        index.insert(id, slot: slot)
        last = (id, slot)
        return (slot, true)
    }

    /// The slot of the device `name` (see ``slot(of:)-(DeviceID)``).
    @inlinable public mutating func slot(of name: String) -> (slot: Int, isNew: Bool) { slot(of: DeviceID(name)) }

    /// The slot of a device present, or `nil`.
    @inlinable public func existingSlot(of id: DeviceID) -> Int? {
        if let last, last.id == id { return last.slot }
        return index.slot(of: id, ids: ids)
    }

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
        guard let slot = index.remove(id, ids: ids) else { return nil }
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

    /// The names of the devices whose state passes `isIncluded`, in no
    /// particular order.
    @inlinable public func names(where isIncluded: (State) -> Bool) -> [String] {
        ids(where: isIncluded).map(\.name)
    }
}
