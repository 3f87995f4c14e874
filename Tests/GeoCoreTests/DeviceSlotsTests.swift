import GeoCore
import Testing

@Suite struct DeviceSlotsTests {
    @Test func numbersDevicesInOrderOfFirstSightAndRemembersThem() {
        var slots = DeviceSlots()
        #expect(slots.slot(of: "phone") == (0, true))
        #expect(slots.slot(of: "phone") == (0, false))
        #expect(slots.slot(of: "car") == (1, true))
        #expect(slots.slot(of: "phone") == (0, false), "the cached last name is not the only one known")
        #expect(slots.slot(of: "") == (2, true))
        #expect(slots.existingSlot(of: "car") == 1)
        #expect(slots.existingSlot(of: "bike") == nil)
        #expect(slots.byName.map(\.name) == ["", "car", "phone"])
        #expect(slots.byName.map(\.slot) == [2, 1, 0])
    }
}
