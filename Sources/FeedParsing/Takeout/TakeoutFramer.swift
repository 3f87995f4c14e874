/// Cuts a Google Takeout `Records.json` into its location records as the
/// bytes stream by: `{"locations": [ {…}, {…} ]}`, however it is indented
/// and wherever the chunks end.
///
/// It follows the document's structure (nesting, strings and their
/// escapes) without parsing values: the elements of the top-level
/// `"locations"` array are handed on whole, each with its index and the
/// line it opens on; every other member is passed over. A record is held
/// only up to `maximumLength` bytes, so memory stays bounded however
/// large the file, and a file cut short keeps the records before the cut.
struct TakeoutFramer {
    /// What the framer tells its owner.
    enum Event {
        /// A whole element of the `locations` array, an object or not.
        case record(UnsafeBufferPointer<UInt8>, index: Int, at: FeedLocation)
        /// An element longer than the limit, dropped.
        case overlong(index: Int, at: FeedLocation)
        /// Bytes where the document has no place for them (the file is no
        /// JSON object): reported once, the rest of the input ignored.
        case notJSON(at: FeedLocation)
    }

    let maximumLength: Int
    /// Objects and arrays open around the current byte.
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// The top-level member's key, gathered as it is read.
    private var key: [UInt8] = []
    private var isReadingKey = false
    private var expectsKey = false
    /// Whether the bytes are inside the top-level `locations` array.
    private var inLocations = false
    private(set) var sawLocations = false
    private var record: [UInt8] = []
    private var isRecording = false
    private var isOverlong = false
    private var recordStart = FeedLocation(line: 1, byteOffset: 0)
    private(set) var recordCount = 0
    private var hasFailed = false
    private var isClosed = false
    private var line = 1
    private var offset = 0

    init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    /// Whether the input ended inside the document (cut short).
    var isUnfinished: Bool { !hasFailed && depth > 0 }

    /// Reads the next bytes, telling `handle` of each record they complete.
    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ handle: (Event) -> Void) {
        for byte in bytes {
            defer { offset += 1 }
            if byte == 0x0A { line += 1 }
            if hasFailed { continue }
            if isRecording { keep(byte) }
            if inString {
                read(stringByte: byte)
                continue
            }
            switch byte {
            case 0x7B, 0x5B: open(byte, handle)
            case 0x7D, 0x5D: close(handle)
            case 0x20, 0x0A, 0x0D, 0x09: break
            case 0x2C where isRecording && depth == 2: endRecord(handle)
            case 0x2C, 0x3A: expectsKey = byte == 0x2C
            default:
                guard depth > 0 else { return fail(handle) }
                // A bare value in the array (a string, a number, `null`):
                // framed as a record of its own so that the owner can report it.
                if inLocations, depth == 2, !isRecording { startRecord(with: byte) }
                if byte == 0x22 {
                    inString = true
                    isReadingKey = depth == 1 && expectsKey
                    if isReadingKey { key.removeAll(keepingCapacity: true) }
                }
            }
        }
    }

    private mutating func read(stringByte byte: UInt8) {
        if escaped {
            escaped = false
        } else if byte == 0x5C {
            escaped = true
        } else if byte == 0x22 {
            inString = false
            isReadingKey = false
            return
        }
        if isReadingKey, key.count < 16 { key.append(byte) }
    }

    private mutating func open(_ byte: UInt8, _ handle: (Event) -> Void) {
        if depth == 0 {
            guard byte == 0x7B, !isClosed else { return fail(handle) }
            expectsKey = true
        } else if depth == 1, byte == 0x5B, key.elementsEqual("locations".utf8) {
            inLocations = true
            sawLocations = true
        } else if inLocations, depth == 2, !isRecording {
            startRecord(with: byte)
        }
        depth += 1
    }

    /// Closes an object or array: a record's own, or (a bare value's end)
    /// the `locations` array after it.
    private mutating func close(_ handle: (Event) -> Void) {
        guard depth > 0 else { return fail(handle) }
        depth -= 1
        if isRecording, depth <= 2 { endRecord(handle) }
        if depth == 1 { inLocations = false }
        if depth == 0 { isClosed = true }
    }

    private mutating func startRecord(with byte: UInt8) {
        isRecording = true
        isOverlong = false
        record.removeAll(keepingCapacity: true)
        record.append(byte)
        recordStart = FeedLocation(line: line, byteOffset: offset)
    }

    private mutating func keep(_ byte: UInt8) {
        guard !isOverlong else { return }
        if record.count >= maximumLength {
            isOverlong = true
            record.removeAll()
        } else {
            record.append(byte)
        }
    }

    /// Hands on the element just read. A bare value ends at the `,` or
    /// `]` after it, which is no part of it.
    private mutating func endRecord(_ handle: (Event) -> Void) {
        isRecording = false
        let index = recordCount
        recordCount += 1
        if isOverlong { return handle(.overlong(index: index, at: recordStart)) }
        if depth < 2 || record.first != 0x7B && record.first != 0x5B { record.removeLast() }
        record.withUnsafeBufferPointer { handle(.record($0, index: index, at: recordStart)) }
    }

    private mutating func fail(_ handle: (Event) -> Void) {
        hasFailed = true
        handle(.notJSON(at: FeedLocation(line: line, byteOffset: offset)))
    }
}
