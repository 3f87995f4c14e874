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
        var coordinates: [Double]?, device: String?, transitions: [ShardTransition]?, inaccurate: [Int]?
        var seen = Keys()
        let read = object { key, scanner in
            switch key {
            case "input": input = seen.first(0) ? scanner.integer().map(Int.init) : nil
            case "finishing": finishing = seen.first(1) ? scanner.string() : nil
            case "feed": feed = seen.first(2) ? scanner.integer().map(Int.init) : nil
            case "outcome": outcome = seen.first(3) ? scanner.string().flatMap(ShardItem.Outcome.init(rawValue:)) : nil
            case "time": time = seen.first(4) ? scanner.array { $0.integer() } : nil
            case "position": coordinates = seen.first(5) ? scanner.array { $0.number() } : nil
            case "device": device = seen.first(6) ? scanner.string() : nil
            case "transitions": transitions = seen.first(7) ? scanner.array { $0.transition() } : nil
            case "inaccurate": inaccurate = seen.first(8) ? scanner.array { $0.integer().map(Int.init) } : nil
            default: return false
            }
            return !seen.repeated && !scanner.failed
        }
        guard read, let feed, let outcome, let coordinates else { return nil }
        guard seen.has(0) == (input != nil), seen.has(1) == (finishing != nil), seen.has(4) == (time != nil),
            seen.has(6) == (device != nil), seen.has(7) == (transitions != nil), seen.has(8) == (inaccurate != nil)
        else { return nil }
        return ShardItem(
            input: input, finishing: finishing, feed: feed, outcome: outcome, time: time, position: coordinates,
            device: device, transitions: transitions, inaccurate: inaccurate)
    }

    /// Whether a value read since the last key was not of its kind.
    private var failed = false

    /// A transition object.
    private mutating func transition() -> ShardTransition? {
        var kind: Transition.Kind?, time: [Int64]?, region: Int?, distance: Double?, unmonitored: Bool?
        var seen = Keys()
        let read = object { key, scanner in
            switch key {
            case "kind": kind = seen.first(0) ? scanner.string().flatMap(Transition.Kind.init(rawValue:)) : nil
            case "time": time = seen.first(1) ? scanner.array { $0.integer() } : nil
            case "region": region = seen.first(2) ? scanner.integer().map(Int.init) : nil
            case "distance": distance = seen.first(3) ? scanner.number() : nil
            case "unmonitored": unmonitored = seen.first(4) ? scanner.bool() : nil
            default: return false
            }
            return !seen.repeated && !scanner.failed
        }
        guard read, let kind, let time, let region, let distance, seen.has(4) == (unmonitored != nil) else { return nil }
        return ShardTransition(kind: kind, time: time, region: region, distance: distance, unmonitored: unmonitored)
    }

    /// The keys of an object read so far, by their place in its list.
    private struct Keys {
        private var bits: UInt16 = 0
        /// Whether a key came twice.
        private(set) var repeated = false

        /// Notes key `index`; whether it is its first time.
        mutating func first(_ index: Int) -> Bool {
            let bit: UInt16 = 1 << index
            repeated = repeated || bits & bit != 0
            bits |= bit
            return !repeated
        }

        func has(_ index: Int) -> Bool { bits & 1 << index != 0 }
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
        var ascii = true
        while let byte = next, byte != UInt8(ascii: "\"") {
            guard byte >= 0x20, byte != UInt8(ascii: "\\") else { return fail() }
            ascii = ascii && byte < 0x80
            position += 1
        }
        guard next != nil else { return fail() }
        let utf8 = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
        position += 1
        // ASCII is valid UTF-8 as it is; other text is checked.
        return (ascii ? String(decoding: utf8, as: UTF8.self) : String(validating: utf8, as: UTF8.self)) ?? fail()
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

    /// A number in JSON's form, read as the closest `Double`. A zero
    /// written with an exponent (`0e5`, or `1e-400`, which rounds to 0) is
    /// left to `JSONDecoder`, which takes some of these and refuses others.
    private mutating func number() -> Double? {
        let start = position
        _ = take("-")
        guard digits(allowingLeadingZero: false) else { return fail() }
        if take(".") { guard digits(allowingLeadingZero: true) else { return fail() } }
        let exponent = take("e") || take("E")
        if exponent {
            if !take("-") { _ = take("+") }
            guard digits(allowingLeadingZero: true) else { return fail() }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite, value != 0 || !exponent else { return fail() }
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
