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
        #expect(table.names { $0 == 8 } == ["car"])
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
}
