import GeoCore

/// The seeded generator of randomized tests (``SplitMix64``).
///
/// Tests print the seed they use and read `REPEAT_SEED` from the
/// environment, so a failing case can be replayed exactly:
/// `REPEAT_SEED=1234 swift test --filter …`.
public typealias SeededRandom = SplitMix64

extension SplitMix64 {
    /// The seed for a randomized test: `REPEAT_SEED` from the environment
    /// if set, else `fallback` (tests pass a fixed default so that CI is
    /// repeatable, and print it).
    public static func testSeed(default fallback: UInt64) -> UInt64 {
        if let text = environment("REPEAT_SEED"), let value = UInt64(text) { return value }
        return fallback
    }
}
