import Foundation
import GeoCore
import Recurrence

/// Builds one JSON object as text, fields in the order they are added.
///
/// Output is one line, keys and strings escaped per RFC 8259; numbers are
/// written with Swift's shortest round-tripping form.
public struct JSONLine {
    /// The UTF-8 text so far, without the closing brace. Built as bytes:
    /// joining strings made a reminder line cost about 34k instructions.
    private var bytes: [UInt8] = [UInt8(ascii: "{")]
    /// Room on the stack where ``writeLine(to:_:)`` builds its line, ahead
    /// of `bytes`: the line goes to the array in one append, not in some
    /// 25 pieces of about 95 instructions each (the array's uniqueness and
    /// room checked every time). `nil` for a line made with ``init()``.
    private var scratch: UnsafeMutableRawBufferPointer?
    /// How many bytes of ``scratch`` come after `bytes`.
    private var scratchCount = 0
    private var first = true
    /// The last date written and its text.
    private var lastDate = DateText()

    /// A field name quoted once, with its colon (`"time":`), for lines
    /// written many times: quoting a name for every line cost about 230
    /// instructions a field.
    ///
    /// Its text is kept for the life of the process, so that writing it
    /// retains nothing: keys are made once, as constants.
    public struct Key: @unchecked Sendable {
        /// Never written after the key is made, never freed.
        fileprivate let quoted: UnsafeRawBufferPointer

        /// The key `name`.
        public init(_ name: String) {
            var quoted: [UInt8] = []
            JSONLine.appendQuoted(name, to: &quoted)
            quoted.append(UInt8(ascii: ":"))
            let kept = UnsafeMutableRawBufferPointer.allocate(byteCount: quoted.count, alignment: 1)
            kept.copyBytes(from: quoted)
            self.quoted = UnsafeRawBufferPointer(kept)
        }
    }

    /// An empty object.
    public init() {
        // Room for a reminder line at once, instead of growing four times.
        bytes.reserveCapacity(320)
    }

    private init(text: [UInt8]) { bytes = text }

    /// How many bytes a line builds on the stack before it moves them on.
    private static let scratchSize = 1024

    /// Writes the object that `build` fills, and a newline, to `output`.
    /// The object is built at the end of the writer's own buffer: a line
    /// made on its own cost an allocation and a copy.
    public static func writeLine(to output: ByteWriter, _ build: (inout JSONLine) -> Void) {
        var line = JSONLine(text: [])
        swap(&line.bytes, &output.bytes)
        withUnsafeTemporaryAllocation(byteCount: scratchSize, alignment: 16) { scratch in
            line.scratch = scratch
            line.put(UInt8(ascii: "{"))
            build(&line)
            line.put(UInt8(ascii: "}"))
            line.put(0x0A)
            line.spill()
            line.scratch = nil
        }
        swap(&line.bytes, &output.bytes)
        output.flushIfFull()
    }

    /// Appends `byte` to the text.
    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        if let scratch {
            if scratchCount == scratch.count { spill() }
            scratch[scratchCount] = byte
            scratchCount += 1
        } else {
            bytes.append(byte)
        }
    }

    /// Appends `run` to the text.
    @inline(__always)
    private mutating func put(_ run: UnsafeRawBufferPointer) {
        guard let scratch, run.count <= scratch.count - scratchCount else {
            spill()
            bytes.append(contentsOf: run)
            return
        }
        let target = scratch.baseAddress! + scratchCount
        // Most runs (keys, names) in two overlapping words, not a call to memcpy.
        switch run.count {
        case 8...16: Self.copy(run, to: target, as: UInt64.self)
        case 4..<8: Self.copy(run, to: target, as: UInt32.self)
        default: if let source = run.baseAddress { target.copyMemory(from: source, byteCount: run.count) }
        }
        scratchCount += run.count
    }

    /// Copies `run`, of one to two `Word`s, as its first and its last word.
    @inline(__always)
    private static func copy<Word: FixedWidthInteger>(
        _ run: UnsafeRawBufferPointer, to target: UnsafeMutableRawPointer, as _: Word.Type
    ) {
        let size = MemoryLayout<Word>.size
        target.storeBytes(of: run.loadUnaligned(as: Word.self), as: Word.self)
        target.storeBytes(
            of: run.loadUnaligned(fromByteOffset: run.count - size, as: Word.self), toByteOffset: run.count - size,
            as: Word.self)
    }

    /// Appends the UTF-8 of `text`.
    private mutating func put(_ text: String) {
        var text = text
        text.withUTF8 { put(UnsafeRawBufferPointer($0)) }
    }

    /// Moves what ``scratch`` holds to `bytes`.
    private mutating func spill() {
        guard let scratch, scratchCount > 0 else { return }
        bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[..<scratchCount]))
        scratchCount = 0
    }

    /// Adds a string field (`null` when nil).
    public mutating func add(_ key: String, _ value: String?) {
        start(key)
        string(value)
    }

    /// Adds a string field (`null` when nil).
    public mutating func add(_ key: Key, _ value: String?) {
        start(key)
        string(value)
    }

    /// Adds a number field (`null` when nil or not finite).
    public mutating func add(_ key: String, _ value: Double?) { field(key, Self.number(value)) }

    /// Adds a number field (`null` when nil or not finite).
    public mutating func add(_ key: Key, _ value: Double?) { field(key, Self.number(value)) }

    /// Adds an integer field.
    public mutating func add(_ key: String, _ value: Int) { field(key, String(value)) }

    /// Adds an integer field.
    public mutating func add(_ key: Key, _ value: Int) { field(key, String(value)) }

    /// Adds an integer field (`null` when nil).
    public mutating func add(_ key: String, _ value: Int?) { field(key, value.map { String($0) } ?? "null") }

    /// Adds a date field as UTC RFC 3339 text (`null` when nil).
    public mutating func add(_ key: String, date: Date?) {
        start(key)
        self.date(date)
    }

    /// Adds a date field as UTC RFC 3339 text (`null` when nil).
    public mutating func add(_ key: Key, date: Date?) {
        start(key)
        self.date(date)
    }

    /// Adds a boolean field.
    public mutating func add(_ key: String, _ value: Bool) { field(key, value ? "true" : "false") }

    /// Adds a nested object.
    public mutating func add(_ key: String, object: JSONLine) {
        start(key)
        object.bytes.withUnsafeBytes { put($0) }
        put(UInt8(ascii: "}"))
    }

    /// Adds an array of strings.
    public mutating func add(_ key: String, strings: [String]) {
        start(key)
        put(UInt8(ascii: "["))
        for (index, string) in strings.enumerated() {
            if index > 0 { put(UInt8(ascii: ",")) }
            putQuoted(string)
        }
        put(UInt8(ascii: "]"))
    }

    /// Adds an array of objects.
    public mutating func add(_ key: String, objects: [JSONLine]) {
        start(key)
        put(UInt8(ascii: "["))
        for (index, object) in objects.enumerated() {
            if index > 0 { put(UInt8(ascii: ",")) }
            object.bytes.withUnsafeBytes { put($0) }
            put(UInt8(ascii: "}"))
        }
        put(UInt8(ascii: "]"))
    }

    /// Adds a `[low, high]` pair (`null` when nil).
    public mutating func add(_ key: String, interval: ClosedRange<Double>?) {
        guard let interval else { return field(key, "null") }
        field(key, "[" + Self.number(interval.lowerBound) + "," + Self.number(interval.upperBound) + "]")
    }

    /// The object's text (a line made with ``init()``).
    public var string: String {
        precondition(scratch == nil, "a line that writeLine(to:_:) builds has no text of its own")
        return String(unsafeUninitializedCapacity: bytes.count + 1) { text in
            _ = text.initialize(from: bytes)
            text[bytes.count] = UInt8(ascii: "}")
            return bytes.count + 1
        }
    }

    /// Writes the object's text and a newline to `output`, with no
    /// string made on the way.
    public func writeLine(to output: ByteWriter) {
        precondition(scratch == nil, "a line that writeLine(to:_:) builds is written already")
        output.bytes.append(contentsOf: bytes)
        output.bytes.append(UInt8(ascii: "}"))
        output.bytes.append(0x0A)
        output.flushIfFull()
    }

    /// Writes the separator and the quoted key with its colon.
    private mutating func start(_ key: String) {
        if !first { put(UInt8(ascii: ",")) }
        first = false
        putQuoted(key)
        put(UInt8(ascii: ":"))
    }

    /// Writes the separator and the quoted key with its colon.
    private mutating func start(_ key: Key) {
        if !first { put(UInt8(ascii: ",")) }
        first = false
        put(key.quoted)
    }

    /// A field whose value is JSON text already.
    private mutating func field(_ key: String, _ json: String) {
        start(key)
        put(json)
    }

    /// A field whose value is JSON text already.
    private mutating func field(_ key: Key, _ json: String) {
        start(key)
        put(json)
    }

    /// A string value, quoted (`null` when nil).
    private mutating func string(_ value: String?) {
        if let value { putQuoted(value) } else { put("null") }
    }

    /// A date value as UTC RFC 3339 text (`null` when nil).
    private mutating func date(_ date: Date?) {
        // Written straight into the line in RFC3339Text.format's range.
        guard let date, DateText.covers(date) else { return string(date.map(RFC3339Text.format)) }
        lastDate.update(to: date)
        put(UInt8(ascii: "\""))
        if let scratch, scratch.count - scratchCount >= MemoryLayout<SIMD32<UInt8>>.size {
            // All 32 bytes in one store; those past the text are written over next.
            scratch.storeBytes(of: lastDate.bytes, toByteOffset: scratchCount, as: SIMD32<UInt8>.self)
            scratchCount += lastDate.length
        } else {
            lastDate.withText { put($0) }
        }
        put(UInt8(ascii: "\""))
    }

    /// A number as a field's value: `null` when nil or not finite.
    static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) + ".0" : "\(value)"
    }

    /// `value` as a JSON string literal: quotes, backslashes and control
    /// characters escaped, everything else as it is.
    public static func quoted(_ value: String) -> String {
        var bytes: [UInt8] = []
        appendQuoted(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``quoted(_:)``'s UTF-8 to `bytes`.
    static func appendQuoted(_ value: String, to bytes: inout [UInt8]) {
        var line = JSONLine(text: [])
        swap(&line.bytes, &bytes)
        line.putQuoted(value)
        swap(&line.bytes, &bytes)
    }

    /// Appends `value` as ``quoted(_:)`` writes it. Every byte to escape is
    /// ASCII, so the text is read byte by byte (the bytes of other
    /// characters go through unchanged), and most names, which need no
    /// escape (checked eight bytes at a time), go in whole.
    private mutating func putQuoted(_ value: String) {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        put(quote)
        let plain =
            value.utf8.withContiguousStorageIfAvailable { utf8 in
                let text = UnsafeRawBufferPointer(utf8)
                guard !ByteWords.needsJSONEscape(text) else { return false }
                put(text)
                return true
            } ?? false
        if plain {
            put(quote)
            return
        }
        let hex = Array("0123456789abcdef".utf8)
        for byte in value.utf8 {
            let escape: UInt8
            switch byte {
            case quote, backslash: escape = byte
            case 0x0A: escape = UInt8(ascii: "n")
            case 0x0D: escape = UInt8(ascii: "r")
            case 0x09: escape = UInt8(ascii: "t")
            case ..<0x20:
                put("\\u00")
                put(hex[Int(byte >> 4)])
                put(hex[Int(byte & 15)])
                continue
            default:
                put(byte)
                continue
            }
            put(backslash)
            put(escape)
        }
        put(quote)
    }
}
