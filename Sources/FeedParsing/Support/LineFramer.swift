import GeoCore

/// Receives the lines a ``LineFramer`` cuts.
protocol LineHandler {
    /// One line without its terminator.
    mutating func line(_ bytes: UnsafeBufferPointer<UInt8>, at location: FeedLocation)
    /// A line longer than `limit` bytes, dropped.
    mutating func overlongLine(limit: Int, at location: FeedLocation)
}

/// Cuts a byte stream into lines at CR, LF or CRLF, whatever the chunking,
/// keeping at most `maximumLength` bytes of an unfinished line.
struct LineFramer {
    let maximumLength: Int
    private var carry: [UInt8] = []
    private var offset = 0
    private var line = 1
    private var lineStart = 0
    private var previousWasCR = false
    private var overlong = false

    init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    /// Frames the next chunk.
    mutating func feed<Handler: LineHandler>(_ bytes: UnsafeBufferPointer<UInt8>, to handler: inout Handler) {
        let count = bytes.count
        let base = offset
        var start = 0
        if previousWasCR, count > 0, bytes[0] == 0x0A {
            start = 1
            lineStart = base + 1
        }
        if count > 0 { previousWasCR = false }
        let raw = UnsafeRawBufferPointer(bytes)
        var i = start
        while i < count {
            i = ByteSearch.firstIndex(of: 0x0A, or: 0x0D, in: raw, from: i)
            if i == count { break }
            let b = bytes[i]
            emit(UnsafeBufferPointer(rebasing: bytes[start..<i]), to: &handler)
            line += 1
            var next = i + 1
            if b == 0x0D {
                if next < count {
                    if bytes[next] == 0x0A { next += 1 }
                } else {
                    previousWasCR = true
                }
            }
            lineStart = base + next
            i = next
            start = next
        }
        if start < count, !overlong {
            let rest = count - start
            if carry.count + rest > maximumLength {
                handler.overlongLine(limit: maximumLength, at: FeedLocation(line: line, byteOffset: lineStart))
                carry.removeAll(keepingCapacity: true)
                overlong = true
            } else {
                carry.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<count]))
            }
        }
        offset += count
    }

    /// Ends the input: hands on an unterminated last line.
    mutating func finish<Handler: LineHandler>(to handler: inout Handler) {
        if !carry.isEmpty {
            let location = FeedLocation(line: line, byteOffset: lineStart)
            let whole = carry
            carry.removeAll()
            whole.withUnsafeBufferPointer { handler.line($0, at: location) }
        }
        overlong = false
    }

    private mutating func emit<Handler: LineHandler>(_ bytes: UnsafeBufferPointer<UInt8>, to handler: inout Handler) {
        let location = FeedLocation(line: line, byteOffset: lineStart)
        if overlong {
            overlong = false
            return
        }
        if carry.isEmpty {
            if bytes.count > maximumLength {
                handler.overlongLine(limit: maximumLength, at: location)
            } else {
                handler.line(bytes, at: location)
            }
            return
        }
        if carry.count + bytes.count > maximumLength {
            handler.overlongLine(limit: maximumLength, at: location)
            carry.removeAll(keepingCapacity: true)
            return
        }
        carry.append(contentsOf: bytes)
        let whole = carry
        carry.removeAll(keepingCapacity: true)
        whole.withUnsafeBufferPointer { handler.line($0, at: location) }
    }
}
