import FuzzSupport

// libFuzzer target: the GPX decoder (FeedFuzzing: chunk boundaries, options, output).
Fuzzer.run { FeedFuzzing.check($0, format: .gpx) }
