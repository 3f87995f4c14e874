import FuzzSupport

// libFuzzer target: the NMEA decoder (FeedFuzzing: chunk boundaries, options, output).
Fuzzer.run { FeedFuzzing.check($0, format: .nmea) }
