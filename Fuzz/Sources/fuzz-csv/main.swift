import FuzzSupport

// libFuzzer target: the CSV decoder (FeedFuzzing: chunk boundaries, options, output).
Fuzzer.run { FeedFuzzing.check($0, format: .csv) }
