import FuzzSupport

// libFuzzer target: the FIT decoder (FeedFuzzing: chunk boundaries, options, output).
Fuzzer.run { FeedFuzzing.check($0, format: .fit) }
