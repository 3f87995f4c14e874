import Pipeline
import Testing

@Suite struct ElapsedTextTests {
    @Test(
        "wall-clock times as a summary says them, never 0.0 s",
        arguments: [
            (0.0, "1 ms"), (0.0042, "4 ms"), (0.0996, "100 ms"), (0.85, "0.85 s"), (12.34, "12.3 s"), (125.4, "2 min 05 s"),
        ])
    func text(seconds: Double, expected: String) {
        #expect(ElapsedText.of(seconds) == expected)
    }
}
