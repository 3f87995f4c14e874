import FuzzSupport

// libFuzzer target: the KML track decoder (FeedFuzzing: chunk boundaries, options, output).
Fuzzer.run { FeedFuzzing.check($0, format: .kml) }
