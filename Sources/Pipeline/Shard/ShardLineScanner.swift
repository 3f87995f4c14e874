import Foundation
import Geofencing

/// Reads a shard's item line as ``ShardItem/appendLine(to:)`` writes it,
/// its keys in any order. Any other text is left to `JSONDecoder`: each
/// read returns `nil` (or `false`) at the first byte it does not expect.
struct ShardLineScanner {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isAtEnd: Bool { position == bytes.count }

    /// Takes `text` if the line goes on with it.
    mutating func take(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count - position >= count,
            memcmp(bytes.baseAddress! + position, text.utf8Start, count) == 0
        else { return false }
        position += count
        return true
    }

    private var next: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// An item object.
    mutating func item() -> ShardItem? {
        var input: Int?, finishing: String?, feed: Int?, outcome: ShardItem.Outcome?, time: [Int64]?
        var position: [Double]?, device: String?, transitions: [ShardTransition]?, inaccurate: [Int]?
        var seen = Set<String>()
        let read = object { key, scanner in
            guard seen.insert(key).inserted else { return false }
            switch key {
            case "input": input = scanner.integer().map(Int.init)
            case "finishing": finishing = scanner.string()
            case "feed": feed = scanner.integer().map(Int.init)
            case "outcome": outcome = scanner.string().flatMap(ShardItem.Outcome.init(rawValue:))
            case "time": time = scanner.array { $0.integer() }
            case "position": position = scanner.array { $0.number() }
            case "device": device = scanner.string()
            case "transitions": transitions = scanner.array { $0.transition() }
            case "inaccurate": inaccurate = scanner.array { $0.integer().map(Int.init) }
            default: return false
            }
            return !scanner.failed
        }
        guard read, let feed, let outcome, let position else { return nil }
        guard seen.contains("input") == (input != nil), seen.contains("finishing") == (finishing != nil),
            seen.contains("time") == (time != nil), seen.contains("device") == (device != nil),
            seen.contains("transitions") == (transitions != nil), seen.contains("inaccurate") == (inaccurate != nil)
        else { return nil }
        return ShardItem(
            input: input, finishing: finishing, feed: feed, outcome: outcome, time: time, position: position,
            device: device, transitions: transitions, inaccurate: inaccurate)
    }

    /// Whether a value read since the last key was not of its kind.
    private var failed = false

    /// A transition object.
    private mutating func transition() -> ShardTransition? {
        var kind: Transition.Kind?, time: [Int64]?, region: Int?, distance: Double?, unmonitored: Bool?
        var seen = Set<String>()
        let read = object { key, scanner in
            guard seen.insert(key).inserted else { return false }
            switch key {
            case "kind": kind = scanner.string().flatMap(Transition.Kind.init(rawValue:))
            case "time": time = scanner.array { $0.integer() }
            case "region": region = scanner.integer().map(Int.init)
            case "distance": distance = scanner.number()
            case "unmonitored": unmonitored = scanner.bool()
            default: return false
            }
            return !scanner.failed
        }
        guard read, let kind, let time, let region, let distance,
            seen.contains("unmonitored") == (unmonitored != nil)
        else { return nil }
        return ShardTransition(kind: kind, time: time, region: region, distance: distance, unmonitored: unmonitored)
    }

    /// An object: `field` reads each key's value and says whether it could.
    private mutating func object(_ field: (String, inout ShardLineScanner) -> Bool) -> Bool {
        guard take("{") else { return false }
        if take("}") { return true }
        repeat {
            failed = false
            guard let key = string(), take(":"), field(key, &self), !failed else { return false }
        } while take(",")
        return take("}")
    }

    /// An array of what `element` reads; marks the read failed if any is not.
    private mutating func array<Element>(_ element: (inout ShardLineScanner) -> Element?) -> [Element]? {
        guard take("[") else { return fail() }
        var elements: [Element] = []
        if take("]") { return elements }
        repeat {
            guard let value = element(&self) else { return fail() }
            elements.append(value)
        } while take(",")
        return take("]") ? elements : fail()
    }

    /// Marks the read failed.
    private mutating func fail<Value>() -> Value? {
        failed = true
        return nil
    }

    /// A string without escapes or control characters, in valid UTF-8.
    private mutating func string() -> String? {
        guard take("\"") else { return fail() }
        let start = position
        while let byte = next, byte != UInt8(ascii: "\"") {
            guard byte >= 0x20, byte != UInt8(ascii: "\\") else { return fail() }
            position += 1
        }
        guard next != nil else { return fail() }
        let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        position += 1
        return text ?? fail()
    }

    /// `true` or `false`.
    private mutating func bool() -> Bool? {
        if take("true") { return true }
        if take("false") { return false }
        return fail()
    }

    /// An integer as JSON writes one (no fraction, exponent or leading
    /// zero) that fits in 64 bits.
    private mutating func integer() -> Int64? {
        let start = position
        let negative = take("-")
        var value: Int64 = 0
        var digits = 0
        while let byte = next, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            let digit = Int64(byte - UInt8(ascii: "0"))
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowAgain) =
                negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflow, !overflowAgain else { return fail() }
            value = sum
            digits += 1
            position += 1
        }
        guard digits > 0, !(digits > 1 && bytes[start + (negative ? 1 : 0)] == UInt8(ascii: "0")),
            next.map({ ![UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains($0) }) ?? true
        else { return fail() }
        return value
    }

    /// A number in JSON's form, read as the closest `Double`.
    private mutating func number() -> Double? {
        let start = position
        _ = take("-")
        guard digits(allowingLeadingZero: false) else { return fail() }
        if take(".") { guard digits(allowingLeadingZero: true) else { return fail() } }
        if take("e") || take("E") {
            if !take("-") { _ = take("+") }
            guard digits(allowingLeadingZero: true) else { return fail() }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return fail() }
        return value
    }

    /// One digit or more; a leading zero only alone unless allowed.
    private mutating func digits(allowingLeadingZero: Bool) -> Bool {
        let start = position
        while let byte = next, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
        let count = position - start
        return count > 0 && (allowingLeadingZero || count == 1 || bytes[start] != UInt8(ascii: "0"))
    }
}
