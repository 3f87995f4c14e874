/// Per-device state in a dense array, found by device name: the storage
/// of every stage that keeps state per device.
///
/// Devices get slots in order of first sight. A removed device's slot is
/// given to the next new device, so the array grows with the most devices
/// present at once, not with every device ever seen (``remove(_:)`` is how
/// a stage lets an idle device go). The last name looked up is remembered, since a feed usually
/// carries one device; the others are found through a ``DeviceNameIndex``.
/// A free slot holds `empty`, so it keeps no memory.
public struct DeviceTable<State: Sendable>: Sendable {
    @usableFromInline var index = DeviceNameIndex()
    /// Each slot's device name; `nil` where the slot is free.
    @usableFromInline var names: [String?] = []
    @usableFromInline var states: [State] = []
    @usableFromInline var free: [Int] = []
    @usableFromInline var last: (name: String, slot: Int)?
    @usableFromInline let empty: State

    /// No devices; `empty` is the state of a new device.
    @inlinable public init(empty: State) { self.empty = empty }

    /// The number of devices present.
    @inlinable public var count: Int { names.count - free.count }

    /// The slot of `name`, made with the empty state on first sight
    /// (`isNew` then says so).
    @inlinable public mutating func slot(of name: String) -> (slot: Int, isNew: Bool) {
        if let last, last.name == name { return (last.slot, false) }
        if let known = index.slot(of: name, names: names) {
            last = (name, known)
            return (known, false)
        }
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            names[slot] = name
        } else {
            slot = states.count
            states.append(empty)
            names.append(name)
        }
        index.insert(name, slot: slot)
        last = (name, slot)
        return (slot, true)
    }

    /// The slot of a device present, or `nil`.
    @inlinable public func existingSlot(of name: String) -> Int? {
        if let last, last.name == name { return last.slot }
        return index.slot(of: name, names: names)
    }

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

    /// Removes `name`, returning its state; its slot goes to the next new device.
    @inlinable public mutating func remove(_ name: String) -> State? {
        guard let slot = index.remove(name, names: names) else { return nil }
        names[slot] = nil
        if last?.name == name { last = nil }
        var state = empty
        swap(&state, &states[slot])
        free.append(slot)
        return state
    }

    /// Every device present and its slot, by name.
    @inlinable public var byName: [(name: String, slot: Int)] {
        names.enumerated().compactMap { slot, name in name.map { ($0, slot) } }.sorted { $0.name < $1.name }
    }

    /// The names of the devices whose state passes `isIncluded`, in no
    /// particular order.
    @inlinable public func names(where isIncluded: (State) -> Bool) -> [String] {
        names.indices.compactMap { slot in names[slot] != nil && isIncluded(states[slot]) ? names[slot] : nil }
    }
}
