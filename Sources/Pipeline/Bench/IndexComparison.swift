import GeoCore
import Geofencing

/// The spatial grid against the brute-force reference on the same sample of
/// positions, in the same process: whether they agree, how many regions
/// the grid tests per position, and how fast each is — in CPU time of the
/// calling thread, alternating the two slice by slice and keeping the
/// fastest time of each, so that their ratio holds on a busy machine.
public struct IndexComparison: Sendable {
    /// Positions in the sample.
    public var sample = 0
    /// Sampled positions where the grid's regions differ from the reference's.
    public var disagreements = 0
    /// Region hits over the sample (the reference's).
    public var hits = 0
    /// Regions the grid tests per sampled position (its cells' entries).
    public var candidatesPerPosition: Double?
    /// The grid's fastest CPU seconds per position.
    public var indexSecondsPerPosition: Double?
    /// The reference's fastest CPU seconds per position.
    public var referenceSecondsPerPosition: Double?

    /// A comparison of nothing (no position sampled).
    public init() {}

    /// The grid's positions per second.
    public var indexPositionsPerSecond: Double? { indexSecondsPerPosition.map { 1 / max($0, 1e-15) } }
    /// The reference's positions per second.
    public var referencePositionsPerSecond: Double? { referenceSecondsPerPosition.map { 1 / max($0, 1e-15) } }
    /// How many times faster the grid is than the reference.
    public var speedup: Double? {
        guard let index = indexSecondsPerPosition, let reference = referenceSecondsPerPosition else { return nil }
        return reference / max(index, 1e-15)
    }

    /// The sampled positions where `index` and `reference` answer differently.
    public static func disagreements(
        _ index: some RegionIndex, _ reference: some RegionIndex, on sample: [Coordinate]
    ) -> Int {
        sample.reduce(0) { $0 + (index.regions(containing: $1) == reference.regions(containing: $1) ? 0 : 1) }
    }

    /// Checks and times `grid` against `reference` on `sample`, `rounds`
    /// times. The sample is cut into slices, and each round times the
    /// reference, then the grid, slice by slice (each repeated until it
    /// lasts a millisecond, so that the clock's resolution and a stray
    /// interrupt do not decide); each slice keeps its fastest time of each, so that both
    /// sides are measured on the same machine from one slice to the next
    /// and a burst of load in one round does not decide the figure.
    public static func measure(
        grid: SpatialGrid, reference: BruteForceIndex, sample: [Coordinate], rounds: Int
    )
        -> IndexComparison
    {
        var comparison = IndexComparison()
        guard !sample.isEmpty else { return comparison }
        comparison.sample = sample.count
        comparison.disagreements = disagreements(grid, reference, on: sample)
        comparison.candidatesPerPosition =
            Double(sample.reduce(0) { $0 + grid.candidateCount(at: $1) }) / Double(sample.count)
        let sliceCount = min(sample.count, 20)
        let slices = (0..<sliceCount).map { i in
            Array(sample[i * sample.count / sliceCount..<(i + 1) * sample.count / sliceCount])
        }
        var indexPasses = [Int](repeating: 0, count: sliceCount)
        var referencePasses = [Int](repeating: 0, count: sliceCount)
        var indexBest = [Double](repeating: .infinity, count: sliceCount)
        var referenceBest = [Double](repeating: .infinity, count: sliceCount)
        for round in 0..<max(1, rounds) {
            for (i, slice) in slices.enumerated() {
                if round == 0 {
                    comparison.hits += time(passes: 1, over: slice, reference).hits
                    referencePasses[i] = passesLasting(0.001, over: slice, reference)
                    indexPasses[i] = passesLasting(0.001, over: slice, grid)
                }
                let referenceSeconds = time(passes: referencePasses[i], over: slice, reference).seconds
                referenceBest[i] = min(referenceBest[i], referenceSeconds / Double(referencePasses[i]))
                let indexSeconds = time(passes: indexPasses[i], over: slice, grid).seconds
                indexBest[i] = min(indexBest[i], indexSeconds / Double(indexPasses[i]))
            }
        }
        comparison.referenceSecondsPerPosition = referenceBest.reduce(0, +) / Double(sample.count)
        comparison.indexSecondsPerPosition = indexBest.reduce(0, +) / Double(sample.count)
        return comparison
    }

    /// The passes over `slice` (doubling from one) that take `seconds` at least.
    private static func passesLasting(_ seconds: Double, over slice: [Coordinate], _ index: some RegionIndex) -> Int {
        var passes = 1
        while time(passes: passes, over: slice, index).seconds < seconds, passes < 1 << 20 { passes *= 2 }
        return passes
    }

    /// Looks up every position `passes` times; the hits of one pass and the
    /// CPU seconds of all.
    private static func time(
        passes: Int, over sample: [Coordinate], _ index: some RegionIndex
    ) -> (
        hits: Int, seconds: Double
    ) {
        var hits = 0
        let start = ThreadCPUClock.now()
        for _ in 0..<passes {
            for point in sample { index.forEachRegion(containing: point) { _ in hits += 1 } }
        }
        return (hits / passes, ThreadCPUClock.now() - start)
    }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}
