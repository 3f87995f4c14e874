/// A small, fast, repeatable random number generator (SplitMix64) for
/// seeded randomized tests.
///
/// Tests print the seed they use and read `REPEAT_SEED` from the
/// environment, so a failing case can be replayed exactly:
/// `REPEAT_SEED=1234 swift test --filter …`.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The seed for a randomized test: `REPEAT_SEED` from the environment
    /// if set, else `fallback` (tests pass a fixed default so that CI is
    /// repeatable, and print it).
    public static func testSeed(default fallback: UInt64) -> UInt64 {
        if let text = environment("REPEAT_SEED"), let value = UInt64(text) { return value }
        return fallback
    }
}
