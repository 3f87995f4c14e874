import GeoCore
import Geofencing
import Testing

@Suite("Seeded geofence workloads")
struct GeofenceWorkloadTests {
    @Test("the same seed gives the same workload", arguments: GeofenceWorkload.Layout.allCases)
    func repeatable(layout: GeofenceWorkload.Layout) {
        var first = GeofenceWorkload(layout: layout, seed: 42)
        var second = GeofenceWorkload(layout: layout, seed: 42)
        let shapes = first.regions(count: 50)
        #expect(shapes == second.regions(count: 50))
        #expect((0..<20).map { _ in first.point(near: shapes) } == (0..<20).map { _ in second.point(near: shapes) })
        var other = GeofenceWorkload(layout: layout, seed: 43)
        #expect(other.regions(count: 50) != shapes)
    }

    @Test("bench's city workload keeps its numbers (seed 1: the first region and walk points)")
    func benchNumbersArePinned() {
        var workload = GeofenceWorkload(layout: .city, seed: 1)
        let regions = workload.regions(count: 2)
        let walk = workload.walks(count: 4, tracks: 2)
        // The numbers the bench's own generator gave before it moved here.
        #expect(
            regions.map(Self.describe) == [
                "52.53795805399821,13.508977247948732,486.9512391140583",
                "52.50498833325341,13.375287508783451,393.3024763602925",
            ])
        #expect(
            walk.map { "\($0.latitude),\($0.longitude)" } == [
                "52.62180720746952,13.410227763875135", "52.6217994204851,13.410381617156819",
                "52.5078424227668,13.41333673583136", "52.50776440672157,13.41344283583919",
            ])
    }

    @Test("walks stay in their box and step 8–12 m", arguments: [GeofenceWorkload.Layout.city, .country])
    func walksStayInTheBox(layout: GeofenceWorkload.Layout) {
        var workload = GeofenceWorkload(layout: layout, seed: 7)
        let half = layout == .city ? 15_000.0 : 400_000.0
        let centre = Coordinate(latitude: 52.52, longitude: 13.40)
        let points = workload.walks(count: 20_000, tracks: 4)
        #expect(points.count == 20_000)
        for point in points {
            #expect(abs(point.latitude - 52.52) * Geodesy.metresPerDegree <= half + 1e-6)
        }
        // Within a track (5 000 points each) consecutive points are one step apart, or less at an edge.
        for index in 1..<points.count where index % 5_000 != 0 {
            #expect(Geodesy.distance(points[index - 1], points[index]) <= 12.01)
        }
        #expect(points.allSatisfy { Geodesy.distance($0, centre) < 2 * half })
    }

    @Test("regions lie where their layout says")
    func layouts() {
        var polar = GeofenceWorkload(layout: .polar, seed: 3)
        #expect(
            polar.regions(count: 200).allSatisfy { shape in
                guard case .circle(let circle) = shape else { return false }
                return abs(circle.centre.latitude) >= 88.5 && circle.radius <= 40_000
            })
        var mixed = GeofenceWorkload(layout: .mixedSizes, seed: 3)
        let shapes = mixed.regions(count: 400)
        #expect(shapes.contains { if case .area = $0 { true } else { false } }, "one in eight is a polygon")
    }

    static func describe(_ shape: Shape) -> String {
        guard case .circle(let circle) = shape else { return "not a circle" }
        return "\(circle.centre.latitude),\(circle.centre.longitude),\(circle.radius)"
    }
}
