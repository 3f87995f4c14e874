import Pipeline
import Testing

@Suite struct RateTextTests {
    @Test(
        "rates with three significant digits and a suffix",
        arguments: [
            (10_912_345.0, "10.9M"), (1_172_672, "1.17M"), (352_400, "352k"), (3_219, "3.22k"), (950, "950"),
            (999_999, "1M"), (2_000_000, "2M"), (0.5, "0.5"), (0, "0"), (3.5e9, "3.5G"), (99_960, "100k"),
        ])
    func formats(rate: Double, expected: String) {
        #expect(RateText.of(rate) == expected)
    }
}
