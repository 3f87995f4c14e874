import FuzzSupport

// libFuzzer target: the Google Takeout location history decoder (FeedFuzzing: chunk boundaries, options, output).
Fuzzer.run { FeedFuzzing.check($0, format: .takeout) }
