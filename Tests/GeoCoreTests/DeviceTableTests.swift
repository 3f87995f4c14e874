import GeoCore
import Testing

@Suite struct DeviceTableTests {
    @Test func numbersDevicesInOrderOfFirstSightAndRemembersThem() {
        var table = DeviceTable(empty: 0)
        #expect(table.slot(of: "phone") == (0, true))
        #expect(table.slot(of: "phone") == (0, false))
        #expect(table.slot(of: "car") == (1, true))
        #expect(table.slot(of: "phone") == (0, false), "the cached last name is not the only one known")
        #expect(table.slot(of: "") == (2, true))
        #expect(table.existingSlot(of: "car") == 1)
        #expect(table.existingSlot(of: "bike") == nil)
        #expect(table.byName.map(\.name) == ["", "car", "phone"])
        #expect(table.byName.map(\.slot) == [2, 1, 0])
    }

    @Test func removedDevicesGiveTheirSlotToTheNextNewOne() {
        var table = DeviceTable(empty: 0)
        table[table.slot(of: "phone").slot] = 7
        table[table.slot(of: "car").slot] = 8
        #expect(table.remove("phone") == 7)
        #expect(table.remove("phone") == nil)
        #expect(table.count == 1)
        #expect(table.existingSlot(of: "phone") == nil, "the cached last name is forgotten too")
        #expect(table.slot(of: "bike") == (0, true), "phone's slot, reused")
        #expect(table[0] == 0, "a reused slot starts empty")
        #expect(table.slot(of: "phone") == (2, true))
        #expect(table.ids { $0 == 8 }.map(\.name) == ["car"])
    }

    @Test func exchangeTakesAStateOutAndPutsOneBack() {
        var table = DeviceTable(empty: [Int]())
        let slot = table.slot(of: "phone").slot
        table[slot].append(1)
        var state: [Int] = []
        table.exchange(slot, with: &state)
        #expect(state == [1])
        #expect(table[slot].isEmpty)
        state.append(2)
        table.exchange(slot, with: &state)
        #expect(table[slot] == [1, 2])
    }

    /// Thousands of devices coming and going, against a dictionary: the
    /// slots by device number, their growth and removal lose no name and
    /// find no stale one.
    @Test func manyDevicesComingAndGoingMatchADictionary() {
        var table = DeviceTable(empty: -1)
        var model: [String: Int] = [:]
        var random = SplitMix64(seed: 17)
        for step in 0..<60_000 {
            // Short and long names, some sharing a 16-byte block, one empty.
            let number = Int(random.next() % 5_000)
            let name = number == 0 ? "" : number % 3 == 0 ? "vehicle-of-the-fleet-\(number)" : "d\(number)"
            if random.next() % 3 == 0 {
                #expect(table.remove(name) == model.removeValue(forKey: name), "step \(step): remove \(name)")
            } else {
                let (slot, isNew) = table.slot(of: name)
                #expect(isNew == (model[name] == nil), "step \(step): \(name)")
                if isNew { table[slot] = step; model[name] = step }
                #expect(table[slot] == model[name], "step \(step): \(name)")
            }
        }
        #expect(table.count == model.count)
        #expect(table.byName.map(\.name) == model.keys.sorted())
        for (name, state) in model { #expect(table.existingSlot(of: name).map { table[$0] } == state) }
        #expect(table.existingSlot(of: "d5000") == nil)
        #expect(Set(table.ids { _ in true }.map(\.name)) == Set(model.keys))
    }
}
