import FeedParsing
import FuzzSupport

// libFuzzer target: the format sniffer and the decoder it picks (what the CLI
// does without --format), and NotAFeed, which vets a file's first bytes.
Fuzzer.run { bytes in
    let prefix = [UInt8](bytes.prefix(FeedSniffer.decisiveLength))
    let isWholeFile = bytes.count <= FeedSniffer.decisiveLength
    blackHole(NotAFeed.identify(prefix, isWholeFile: isWholeFile).map { "\($0)" })
    blackHole(FeedSniffer.detect(prefix, isComplete: isWholeFile))
    FeedFuzzing.check(bytes, format: nil)
}
