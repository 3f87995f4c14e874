import FuzzSupport

// libFuzzer target: the TCX decoder (FeedFuzzing: chunk boundaries, options, output).
Fuzzer.run { FeedFuzzing.check($0, format: .tcx) }
