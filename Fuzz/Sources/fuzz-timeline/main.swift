import FuzzSupport

// libFuzzer target: the Google Timeline export decoder (FeedFuzzing: chunk boundaries, options, output).
Fuzzer.run { FeedFuzzing.check($0, format: .timeline) }
