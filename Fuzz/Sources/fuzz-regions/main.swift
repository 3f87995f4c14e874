import FuzzSupport
import GeoCore
import Geofencing
import Pipeline

// libFuzzer target: a --regions file (CSV, GeoJSON, KML or GPX, told apart by content
// as the CLI does), then what replay does with the regions: the spatial grid,
// checked against the brute-force index at points on and around every
// region, and the transition detector along those points.
Fuzzer.run { bytes in
    let loaded = LoadedRegions.load([UInt8](bytes), source: "regions.fuzz")
    blackHole(loaded.diagnostics.map(\.description))
    var choices = FuzzChoices(bytes)
    let regions = loaded.regions
    let grid = SpatialGrid(shapes: regions.map(\.shape))
    var bruteForce = BruteForceIndex()
    for (key, region) in regions.enumerated() { bruteForce.insert(region.shape, forKey: key) }

    var points: [Coordinate] = []
    for region in regions.prefix(32) {
        let box = region.shape.boundingBox
        if case .circle(let circle) = region.shape { points.append(circle.centre) }
        points += [
            Coordinate(latitude: box.south, longitude: box.west), Coordinate(latitude: box.north, longitude: box.east),
            Coordinate(latitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2),
        ]
    }
    for _ in 0..<8 {
        let latitude = Double(choices.below(180_001)) / 1000 - 90
        points.append(Coordinate(latitude: latitude, longitude: Double(choices.below(360_001)) / 1000 - 180))
    }
    for point in points where point.isValid {
        var fromGrid: [Int] = []
        var fromBruteForce: [Int] = []
        grid.forEachRegion(containing: point) { fromGrid.append($0) }
        bruteForce.forEachRegion(containing: point) { fromBruteForce.append($0) }
        if fromGrid.sorted() != fromBruteForce {
            fatalError("at \(point) the grid finds regions \(fromGrid.sorted()), the brute force \(fromBruteForce)")
        }
    }

    var detector = TransitionDetector(regions: regions)
    for (second, point) in points.enumerated() where point.isValid {
        let fix = Fix(time: Timestamp(nanoseconds: Int64(second) * 1_000_000_000), coordinate: point, accuracy: 5)
        blackHole(detector.process(TimedFix(fix)!))
    }
}
