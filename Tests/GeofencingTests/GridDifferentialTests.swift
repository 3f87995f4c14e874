import GeoCore
import Geofencing
import TestSupport
import Testing

/// The grid must answer exactly what the brute-force reference answers.
/// Seeded: the seed is printed; `REPEAT_SEED=n swift test --filter
/// GridDifferential` replays a failure.
@Suite struct GridDifferentialTests {
    static let seed = SeededRandom.testSeed(default: 20_251_121)

    @Test(arguments: GeofenceWorkload.Layout.allCases)
    func bulkBuildAgreesWithBruteForce(kind: GeofenceWorkload.Layout) {
        print("GridDifferentialTests seed \(Self.seed) workload \(kind.rawValue)")
        var workload = GeofenceWorkload(layout: kind, seed: Self.seed)
        let shapes = (0..<600).map { _ in workload.shape() }
        let grid = SpatialGrid(shapes: shapes)
        let brute = BruteForceIndex(shapes: shapes)
        grid._checkInvariants()
        #expect(grid.count == brute.count)
        var disagreements = 0
        for _ in 0..<3_000 {
            let point = workload.point(near: shapes)
            let expected = brute.regions(containing: point)
            let actual = grid.regions(containing: point)
            if actual != expected {
                disagreements += 1
                if disagreements <= 3 { Issue.record("\(kind) at \(point): grid \(actual), brute \(expected)") }
            }
        }
        #expect(disagreements == 0, "seed \(Self.seed)")
    }

    @Test(arguments: GeofenceWorkload.Layout.allCases)
    func interleavedInsertAndRemoveAgree(kind: GeofenceWorkload.Layout) {
        print("GridDifferentialTests seed \(Self.seed) workload \(kind.rawValue) (incremental)")
        var workload = GeofenceWorkload(layout: kind, seed: Self.seed &+ 1)
        var shapes = (0..<200).map { _ in workload.shape() }
        var grid = SpatialGrid(shapes: shapes)
        grid._checkInvariants()
        var brute = BruteForceIndex(shapes: shapes)
        var live = Set(shapes.indices)
        var disagreements = 0
        for round in 0..<40 {
            for _ in 0..<Int.random(in: 1...40, using: &workload) {
                if !live.isEmpty, Int.random(in: 0..<3, using: &workload) == 0 {
                    let key = live.sorted().randomElement(using: &workload)!
                    let removedFromGrid = grid.remove(key: key)
                    grid._checkInvariants()
                    let removedFromBrute = brute.remove(key: key)
                    #expect(removedFromGrid == removedFromBrute)
                    live.remove(key)
                } else {
                    // Half new keys, half replacements of existing ones.
                    let key =
                        Bool.random(using: &workload) || shapes.isEmpty
                        ? shapes.count : Int.random(in: 0..<shapes.count, using: &workload)
                    let shape = workload.shape()
                    if key == shapes.count { shapes.append(shape) } else { shapes[key] = shape }
                    grid.insert(shape, forKey: key)
                    grid._checkInvariants()
                    brute.insert(shape, forKey: key)
                    live.insert(key)
                }
            }
            #expect(grid.count == brute.count)
            let present = live.sorted().map { shapes[$0] }
            for _ in 0..<100 {
                let point = workload.point(near: present)
                let expected = brute.regions(containing: point)
                let actual = grid.regions(containing: point)
                if actual != expected {
                    disagreements += 1
                    if disagreements <= 3 {
                        Issue.record("\(kind) round \(round) at \(point): grid \(actual), brute \(expected)")
                    }
                }
            }
        }
        #expect(disagreements == 0, "seed \(Self.seed)")
    }

    @Test(arguments: GeofenceWorkload.Layout.allCases)
    func candidateBoxQueriesAgree(kind: GeofenceWorkload.Layout) {
        var workload = GeofenceWorkload(layout: kind, seed: Self.seed &+ 2)
        let shapes = (0..<300).map { _ in workload.shape() }
        var grid = SpatialGrid(shapes: shapes)
        var brute = BruteForceIndex(shapes: shapes)
        grid._checkInvariants()
        for key in stride(from: 0, to: 300, by: 7) {
            grid.remove(key: key)
            grid._checkInvariants()
            brute.remove(key: key)
        }
        for _ in 0..<300 {
            let a = workload.point(near: shapes)
            let box = BoundingBox.around(a, radius: workload.uniform(1, 20_000))
            var expected: [Int] = []
            brute.forEachCandidate(intersecting: box) { expected.append($0) }
            var actual: [Int] = []
            grid.forEachCandidate(intersecting: box) { actual.append($0) }
            // Never fewer; each once; any extra only by the prefilter's rounding.
            #expect(Set(actual).isSuperset(of: expected), "seed \(Self.seed) box \(box)")
            #expect(Set(actual).count == actual.count, "seed \(Self.seed) box \(box)")
            #expect(actual.count - expected.count <= 1, "seed \(Self.seed) box \(box)")
        }
    }

    @Test("candidates near a segment's end: none within reach is left out", arguments: GeofenceWorkload.Layout.allCases)
    func candidatesWithinReach(kind: GeofenceWorkload.Layout) {
        var workload = GeofenceWorkload(layout: kind, seed: Self.seed &+ 3)
        let shapes = (0..<300).map { _ in workload.shape() }
        let grid = SpatialGrid(shapes: shapes)
        grid._checkInvariants()
        var pruned = 0
        for _ in 0..<300 {
            let end = workload.point(near: shapes)
            let reach = workload.uniform(1, 5_000)
            let box = BoundingBox.around(end, radius: reach)
            var actual: Set<Int> = []
            grid.forEachCandidate(intersecting: box, within: reach, of: end) { actual.insert($0) }
            for (key, shape) in shapes.enumerated() where shape.boundingBox.intersects(box) {
                if max(0, shape.excess(at: end)) <= reach {
                    #expect(actual.contains(key), "seed \(Self.seed) key \(key) reach \(reach)")
                } else if !actual.contains(key) {
                    pruned += 1
                }
            }
        }
        // The distance test does prune: the box alone would keep them all
        // (in the country box, 300 small regions are too sparse to be near).
        #expect(pruned > 0 || kind == .country, "seed \(Self.seed)")
    }

    @Test(
        "a segment's end: the one-walk query gives the containing regions in order and every crossing candidate",
        arguments: GeofenceWorkload.Layout.allCases)
    func segmentQueryMatchesTheTwoQueries(kind: GeofenceWorkload.Layout) {
        var workload = GeofenceWorkload(layout: kind, seed: Self.seed &+ 5)
        let shapes = (0..<400).map { _ in workload.shape() }
        var grid = SpatialGrid(shapes: shapes)
        var fused = 0
        for round in 0..<2 {
            if round == 1 {
                // Regions in the overflow list: the query must fall back.
                for key in 400..<410 { grid.insert(workload.shape(), forKey: key) }
            }
            for _ in 0..<400 {
                let end = workload.point(near: shapes)
                let start = workload.point(near: [.circle(centre: end, radius: workload.uniform(1, 800))])
                let box = BoundingBox(
                    south: min(start.latitude, end.latitude), north: max(start.latitude, end.latitude),
                    west: min(start.longitude, end.longitude), east: max(start.longitude, end.longitude))
                let answers = SegmentAnswers(grid, end: end, box: box, reach: Geodesy.distance(start, end) * 1.5 + 1)
                answers.check("seed \(Self.seed) end \(end)")
                if round == 0, !answers.inside.isEmpty || !answers.near.isEmpty { fused += 1 }
            }
        }
        #expect(fused > 0 || kind == .country, "seed \(Self.seed): no query found anything")
    }

    @Test("a segment's end inside more regions than the query keeps on the stack, with the one-walk query ruled out")
    func segmentQueryInsideManyRegions() {
        let centre = Coordinate(latitude: 52.52, longitude: 13.40)
        // Forty circles around the end, and others beside it, near or far.
        var shapes = (0..<40).map { Shape.circle(centre: centre, radius: Double(100 + 50 * $0)) }
        for step in 0..<40 {
            let beside = Coordinate(latitude: centre.latitude + 0.001 * Double(step), longitude: centre.longitude + 0.05)
            shapes.append(.circle(centre: beside, radius: 200))
        }
        var grid = SpatialGrid(shapes: shapes)
        // A region in the overflow list: the query takes the two walks.
        grid.insert(.circle(centre: centre, radius: 30), forKey: shapes.count)
        let start = Coordinate(latitude: centre.latitude + 0.02, longitude: centre.longitude + 0.06)
        let box = BoundingBox(
            south: centre.latitude, north: start.latitude, west: centre.longitude, east: start.longitude)
        let answers = SegmentAnswers(grid, end: centre, box: box, reach: Geodesy.distance(start, centre) * 1.5 + 1)
        answers.check("forty regions around the end")
        #expect(answers.expectedInside.count == 41)
        #expect(!answers.near.isEmpty)
    }

    @Test func emptyGridAndInvalidPointsContainNothing() {
        var grid = SpatialGrid()
        #expect(grid.regions(containing: Coordinate(latitude: 0, longitude: 0)).isEmpty)
        grid.insert(.circle(centre: Coordinate(latitude: 0, longitude: 0), radius: 100), forKey: 3)
        #expect(grid.regions(containing: Coordinate(latitude: 0, longitude: 0)) == [3])
        #expect(grid.regions(containing: Coordinate(latitude: .nan, longitude: 0)).isEmpty)
        #expect(grid.regions(containing: Coordinate(latitude: 91, longitude: 0)).isEmpty)
        let first = grid.remove(key: 3)
        let second = grid.remove(key: 3)
        #expect(first && !second)
        #expect(grid.count == 0)
        grid._checkInvariants()
    }
}

/// The one-walk query at a segment's end (`forEachRegion(containing:segmentBox:within:inside:near:)`)
/// beside the two queries it stands for.
private struct SegmentAnswers {
    var inside: [Int] = []
    var near: [Int] = []
    var expectedInside: [Int] = []
    var expectedNear: Set<Int> = []

    init(_ grid: SpatialGrid, end: Coordinate, box: BoundingBox, reach: Double) {
        grid.forEachRegion(containing: end) { expectedInside.append($0) }
        grid.forEachCandidate(intersecting: box, within: reach, of: end) { expectedNear.insert($0) }
        var (inside, near): ([Int], [Int]) = ([], [])
        grid.forEachRegion(
            containing: end, segmentBox: box, within: reach, inside: { inside.append($0) }, near: { near.append($0) })
        (self.inside, self.near) = (inside, near)
    }

    /// The containing regions in the same order, and each other candidate once.
    func check(_ comment: Comment) {
        #expect(inside == expectedInside, comment)
        #expect(Set(near).count == near.count, comment)
        #expect(Set(near) == expectedNear.subtracting(expectedInside), comment)
    }
}
