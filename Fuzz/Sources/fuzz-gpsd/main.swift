import FuzzSupport

// libFuzzer target: the gpsd JSON decoder (FeedFuzzing: chunk boundaries, options, output).
Fuzzer.run { FeedFuzzing.check($0, format: .gpsd) }
