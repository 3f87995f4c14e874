import GeoCore
import Geofencing
import Testing

/// The regions of a run in flat arrays (issue 16: ten million regions took
/// 9.9 GB, a `Region` value and a string each in every stage).
@Suite struct RegionTableTests {
    let square = try! Area(polygons: [
        [
            [
                Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1),
                Coordinate(latitude: 1, longitude: 1), Coordinate(latitude: 1, longitude: 0),
                Coordinate(latitude: 0, longitude: 0),
            ]
        ]
    ])

    var regions: [Region] {
        [
            Region(id: "pharmacy", shape: .circle(centre: Coordinate(latitude: 52.5, longitude: 13.4), radius: 150)),
            Region(id: "", shape: .area(square), task: "walk"),
            Region(
                id: "Müller-Straße 12, Hinterhof \u{1b}",
                shape: .circle(centre: Coordinate(latitude: -33, longitude: 151), radius: 0.5)),
            Region(id: "e\u{301}", shape: .circle(centre: Coordinate(latitude: 0, longitude: -180), radius: 1e6), task: "x"),
        ]
    }

    @Test func readsBackEveryRegionAsItWasAdded() {
        let table = RegionTable(regions)
        #expect(Array(table) == regions)
        #expect(table.count == 4)
        #expect(table.map(\.id) == regions.map(\.id))
        #expect(Array(table.shapes) == regions.map(\.shape))
        #expect((0..<4).map(table.task(at:)) == [nil, "walk", nil, "x"])
        var grown = RegionTable()
        for region in regions { grown.append(region) }
        #expect(Array(grown) == regions)
    }

    @Test func paddingGrowsCirclesOnlyAndKeepsOneCentimetre() {
        let padded = RegionTable(regions).padded(by: -200)
        #expect(Array(padded) == regions.map { $0.padded(by: -200) })
        #expect(padded.shape(at: 0) == .circle(centre: Coordinate(latitude: 52.5, longitude: 13.4), radius: 0.01))
        #expect(padded.shape(at: 1) == .area(square))
    }

    @Test("without tasks, every region's task is its name")
    func namingTasks() {
        let named = RegionTable(regions).namingTasks()
        #expect(named.map(\.task) == regions.map(\.id))
    }

    @Test("repeated names are found as strings compare them: canonically")
    func repeatedNames() {
        let names = ["a", "b", "a", "\u{e9}", "e\u{301}", "K", "\u{212A}", "b", "c"]
        let table = RegionTable(
            names.map { Region(id: $0, shape: .circle(centre: Coordinate(latitude: 0, longitude: 0), radius: 1)) })
        #expect(table.repeatedNames() == [2: 0, 4: 3, 6: 5, 7: 1])
        let unique = RegionTable(
            (0..<50_000).map { Region(id: "r\($0)", shape: .circle(centre: Coordinate(latitude: 0, longitude: 0), radius: 1)) })
        #expect(unique.repeatedNames().isEmpty)
    }
}
