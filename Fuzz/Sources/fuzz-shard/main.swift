import Foundation
import FuzzSupport
import Pipeline

// libFuzzer target: one line of a `replay --shard I/N` file, as `merge`
// reads it. Where the direct reader (`ShardItem.scanned`) takes the line,
// `JSONDecoder`, the reference it stands in for, must read the same item;
// and the item's line as the shard writes it must read back as the item.
Fuzzer.run { bytes in
    guard let direct = ShardItem.scanned(from: bytes) else { return }
    let decoded = try? JSONDecoder().decode(ShardLine.self, from: Data(bytes))
    guard decoded?.item == direct else {
        fatalError("the direct reader took \(direct), JSONDecoder \(String(describing: decoded?.item))")
    }
    var line: [UInt8] = []
    guard direct.appendLine(to: &line) else { fatalError("a scanned item holds a number that is not finite: \(direct)") }
    let again = line.withUnsafeBytes(ShardItem.scanned(from:))
    guard again == direct else {
        fatalError("\(String(decoding: line, as: UTF8.self)) reads back as \(String(describing: again)), not \(direct)")
    }
}
