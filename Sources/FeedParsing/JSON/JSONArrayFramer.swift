/// Cuts a JSON document into the elements of its top-level arrays as the
/// bytes stream by: Google Takeout's `{"locations": [ {…}, {…} ]}`, the
/// on-device Timeline's `{"semanticSegments": […], "rawSignals": […]}` or
/// iOS's `[ {…}, {…} ]`, however it is indented and wherever the chunks
/// end.
///
/// It follows the document's structure (nesting, strings and their
/// escapes) without parsing values: the elements of the arrays named in
/// ``arrays`` (members of the top-level object), or of a top-level array
/// where ``acceptsRootArray``, are handed on whole, each with its array,
/// its index there and the line it opens on; every other member is passed
/// over. An element that lies within one chunk is handed on in place; one
/// that spans chunks is gathered, up to `maximumLength` bytes, so memory
/// stays bounded however large the file. A file cut short keeps the
/// elements before the cut.
struct JSONArrayFramer {
    /// What the framer tells its owner.
    enum Event {
        /// A whole element, an object or not, of the array
        /// ``arrays``[`array`], or of the top-level array when `array` is `nil`.
        case record(UnsafeBufferPointer<UInt8>, array: Int?, index: Int, at: FeedLocation)
        /// An element longer than the limit, dropped.
        case overlong(array: Int?, index: Int, at: FeedLocation)
        /// Bytes where the document has no place for them (the file is no
        /// JSON object, or goes on after it): reported once, the rest of
        /// the input ignored.
        case notJSON(at: FeedLocation)
    }

    /// The keys of the top-level object's members whose elements are handed on.
    let arrays: [[UInt8]]
    /// Whether the document may be an array, whose elements are handed on;
    /// else it must be an object.
    let acceptsRootArray: Bool
    let maximumLength: Int
    /// Objects and arrays open around the current byte.
    private var depth = 0
    /// The depth inside an array's elements: 2 in an object's member, 1 in
    /// a top-level array.
    private var elementDepth = 2
    private var inString = false
    private var escaped = false
    /// The top-level member's key, gathered as it is read.
    private var key: [UInt8] = []
    private var isReadingKey = false
    private var expectsKey = false
    /// The array whose elements the bytes are inside: its index in
    /// ``arrays``, or ``arrays``' count for the top-level array.
    private var currentArray: Int?
    /// Whether any of ``arrays`` was met.
    private(set) var sawArray = false
    /// How many elements of each array (the top-level array last) were met.
    private var counts: [Int]
    /// The element being read, when it began in an earlier chunk.
    private var carried: [UInt8] = []
    private var isRecording = false
    private var isOverlong = false
    private var recordStart = FeedLocation(line: 1, byteOffset: 0)
    /// How many elements of all arrays were met.
    var recordCount: Int { counts.reduce(0, +) }
    private var hasFailed = false
    private var isClosed = false
    private var line = 1
    /// The offset of the chunk being read in the whole input.
    private var offset = 0

    init(arrays: [String], acceptsRootArray: Bool = false, maximumLength: Int) {
        self.arrays = arrays.map { Array($0.utf8) }
        self.acceptsRootArray = acceptsRootArray
        self.maximumLength = maximumLength
        counts = Array(repeating: 0, count: arrays.count + 1)
        keyLimit = (self.arrays.map(\.count).max() ?? 0) + 1
    }

    /// The longest key gathered: one byte longer than the longest of
    /// ``arrays``, so that a longer key never matches one.
    private let keyLimit: Int

    /// Whether the input ended inside the document (cut short).
    var isUnfinished: Bool { !hasFailed && depth > 0 }

    /// Reads the next bytes, telling `handle` of each record they complete.
    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ handle: (Event) -> Void) {
        defer { offset += bytes.count }
        guard !hasFailed else { return }
        var chunk = Chunk(bytes: bytes, recordStart: 0)
        var i = 0
        while i < bytes.count {
            // Inside a record or a string, only a few bytes mean anything:
            // the others (digits, letters, blanks) are passed over at once.
            if isRecording || inString, !escaped, !isReadingKey {
                while i < bytes.count, !Self.isStructural(bytes[i]) { i += 1 }
                guard i < bytes.count else { break }
            }
            let byte = bytes[i]
            if byte == 0x0A { line += 1 }
            if inString {
                readString(byte)
                i += 1
                continue
            }
            switch byte {
            case 0x20, 0x0A, 0x0D, 0x09: break
            case 0x7B, 0x5B: open(byte, at: i, &chunk, handle)
            case 0x7D, 0x5D: close(at: i, &chunk, handle)
            case 0x2C where isRecording && depth == elementDepth: endRecord(before: i, &chunk, handle)
            case 0x2C, 0x3A: expectsKey = byte == 0x2C
            default:
                guard depth > 0 else { return fail(at: i, handle) }
                // A bare value in the array (a string, a number, `null`):
                // framed as a record of its own so that the owner can report it.
                if currentArray != nil, depth == elementDepth, !isRecording { startRecord(at: i, &chunk) }
                if byte == 0x22 {
                    inString = true
                    isReadingKey = depth == 1 && expectsKey && elementDepth == 2
                    if isReadingKey { key.removeAll(keepingCapacity: true) }
                }
            }
            if hasFailed { return }
            i += 1
        }
        if isRecording { carry(UnsafeBufferPointer(rebasing: bytes[chunk.recordStart...])) }
    }

    /// Whether `byte` can change the framer's state: a quote, a backslash,
    /// a bracket or brace, a comma, a colon, or a line feed (counted).
    private static func isStructural(_ byte: UInt8) -> Bool {
        // Bits 0x0A, 0x22, 0x2C and 0x3A; then 0x5B, 0x5C, 0x5D, 0x7B and 0x7D less 64.
        let low: UInt64 = 1 << 0x0A | 1 << 0x22 | 1 << 0x2C | 1 << 0x3A
        let high: UInt64 = 1 << (0x5B - 64) | 1 << (0x5C - 64) | 1 << (0x5D - 64) | 1 << (0x7B - 64) | 1 << (0x7D - 64)
        return byte < 64 ? low >> byte & 1 != 0 : byte < 128 && high >> (byte - 64) & 1 != 0
    }

    /// The chunk being read and where the record in progress begins in it
    /// (0 when it began in an earlier chunk).
    private struct Chunk {
        let bytes: UnsafeBufferPointer<UInt8>
        var recordStart: Int
    }

    private mutating func readString(_ byte: UInt8) {
        if escaped {
            escaped = false
        } else if byte == 0x5C {
            escaped = true
        } else if byte == 0x22 {
            inString = false
            isReadingKey = false
            return
        }
        if isReadingKey, key.count < keyLimit { key.append(byte) }
    }

    private mutating func open(_ byte: UInt8, at index: Int, _ chunk: inout Chunk, _ handle: (Event) -> Void) {
        if depth == 0 {
            guard !isClosed, byte == 0x7B || acceptsRootArray else { return fail(at: index, handle) }
            expectsKey = byte == 0x7B
            if byte == 0x5B {
                elementDepth = 1
                currentArray = arrays.count
                sawArray = true
            }
        } else if depth == 1, byte == 0x5B, elementDepth == 2, let array = arrays.firstIndex(of: key) {
            currentArray = array
            sawArray = true
        } else if currentArray != nil, depth == elementDepth, !isRecording {
            startRecord(at: index, &chunk)
        }
        depth += 1
    }

    /// Closes an object or array: a record's own, or (a bare value's end)
    /// the array after it.
    private mutating func close(at index: Int, _ chunk: inout Chunk, _ handle: (Event) -> Void) {
        guard depth > 0 else { return fail(at: index, handle) }
        depth -= 1
        if isRecording, depth == elementDepth { endRecord(before: index + 1, &chunk, handle) }
        if isRecording, depth == elementDepth - 1 { endRecord(before: index, &chunk, handle) }
        if depth == elementDepth - 1 { currentArray = nil }
        if depth == 0 { isClosed = true }
    }

    private mutating func startRecord(at index: Int, _ chunk: inout Chunk) {
        isRecording = true
        isOverlong = false
        carried.removeAll(keepingCapacity: true)
        chunk.recordStart = index
        recordStart = FeedLocation(line: line, byteOffset: offset + index)
    }

    /// Keeps the part of a record that a chunk ends in, or drops the record
    /// once it is longer than the limit.
    private mutating func carry(_ part: UnsafeBufferPointer<UInt8>) {
        guard !isOverlong else { return }
        if carried.count + part.count > maximumLength {
            isOverlong = true
            carried = []
        } else {
            carried.append(contentsOf: part)
        }
    }

    /// Hands on the element that ends before `end` in the chunk: in place
    /// when it began in this chunk, else joined to what was carried.
    private mutating func endRecord(before end: Int, _ chunk: inout Chunk, _ handle: (Event) -> Void) {
        isRecording = false
        let counter = currentArray ?? 0
        let index = counts[counter]
        counts[counter] += 1
        let array = counter < arrays.count ? counter : nil
        let part = UnsafeBufferPointer(rebasing: chunk.bytes[chunk.recordStart..<end])
        chunk.recordStart = end
        if carried.isEmpty, !isOverlong {
            guard part.count <= maximumLength else {
                return handle(.overlong(array: array, index: index, at: recordStart))
            }
            return handle(.record(part, array: array, index: index, at: recordStart))
        }
        carry(part)
        if isOverlong { return handle(.overlong(array: array, index: index, at: recordStart)) }
        carried.withUnsafeBufferPointer { handle(.record($0, array: array, index: index, at: recordStart)) }
    }

    private mutating func fail(at index: Int, _ handle: (Event) -> Void) {
        hasFailed = true
        handle(.notJSON(at: FeedLocation(line: line, byteOffset: offset + index)))
    }
}
