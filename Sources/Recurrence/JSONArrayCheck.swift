import GeoCore

/// Reads the elements of an array straight from their bytes as the check
/// reaches them; each piece of a piecewise check has a reader of its own.
protocol JSONElementReader: Sendable {
    /// Reads the element that `cursor` stands before and moves the cursor
    /// past it; `false`, with the cursor anywhere, leaves the element to
    /// the check and then to ``read(tree:)``. What it reads it must check
    /// (as ``DirectJSONCursor`` does), since the check passes over it.
    mutating func read(_ cursor: inout DirectJSONCursor) -> Bool
    /// Reads the element that ``read(_:)`` left, checked by now, as a tree
    /// that `value` makes on demand.
    mutating func read(tree value: () throws -> JSONValue) throws
}

/// Checking a large array of objects in pieces, a few per thread, each
/// piece reading its elements as it checks them.
///
/// The split points are guesses: each is an opening brace that follows a
/// closing brace and a comma, near an equal share of the remaining bytes.
/// Every piece is checked and read from its guess on, all at once; then,
/// in order, a piece counts only if the piece before it stopped exactly at
/// its start, between two elements of the array. A guess that fell inside
/// a string or a nested value is passed over by the piece before it, which
/// then checks and reads the rest alone (what the pieces after it read is
/// dropped), so the outcome (and the first problem reported) is the same
/// as a check on one thread.
extension JSONScanner {
    /// Below this many bytes of text left, an array is checked on one
    /// thread (unless told otherwise).
    static let piecewiseMinimum = 1 << 18

    /// How a piece's check ended.
    private enum PieceEnd: Sendable {
        /// At the next piece's start, between two elements.
        case boundary
        /// After the array's closing bracket.
        case arrayEnd
        /// Past the next piece's start, which was not between two elements.
        case overshot
    }

    /// One piece's reader, where it stopped, and how (or its problem).
    private struct Piece<Reader: JSONElementReader>: Sendable {
        let reader: Reader
        let position: Int
        let end: Result<PieceEnd, any Error>
    }

    /// The text under check, read (never written) by the pieces' threads.
    private struct SharedText: @unchecked Sendable {
        let bytes: UnsafeBufferPointer<UInt8>
    }

    /// Checks the array that starts here (at its `[`) through its `]`,
    /// each element read by a reader that `makeReader` makes as it is
    /// checked (told about how many bytes of text it will read), and
    /// returns the readers in the array's order; on up to `jobs` threads
    /// when `piecewiseMinimum` bytes of text or more are left.
    mutating func checkArray<Reader: JSONElementReader>(
        jobs: Int, piecewiseMinimum: Int, reader makeReader: @Sendable (_ bytes: Int) -> Reader
    ) throws -> [Reader] {
        guard try beginArray() else { return [makeReader(0)] }
        skipWhitespace()
        let left = bytes.count - position
        let starts =
            jobs > 1 && left >= piecewiseMinimum
            ? [position] + pieceStarts(Self.pieceCount(jobs: jobs, bytes: left, piecewiseMinimum: piecewiseMinimum)) : []
        guard starts.count > 1 else {
            var reader = makeReader(bytes.count - position)
            _ = try checkElements(until: nil, with: &reader)
            return [reader]
        }
        let text = SharedText(bytes: bytes)
        let arrayDepth = depth
        let pieces = parallelMap(count: starts.count, jobs: jobs) { index in
            var scanner = JSONScanner(text.bytes, at: starts[index], depth: arrayDepth)
            let next = index + 1 < starts.count ? starts[index + 1] : nil
            var reader = makeReader((next ?? text.bytes.count) - starts[index])
            let end = Result { try scanner.checkElements(until: next, with: &reader) }
            return Piece(reader: reader, position: scanner.position, end: end)
        }
        // Piece 0 starts where this scanner stands; each later piece counts
        // only once the piece before it ended exactly at its start.
        var readers: [Reader] = []
        for piece in pieces {
            var reader = piece.reader
            position = piece.position
            let end = try piece.end.get()
            switch end {
            case .boundary: break
            case .arrayEnd: depth -= 1
            case .overshot: _ = try checkElements(until: nil, with: &reader)
            }
            readers.append(reader)
            if end != .boundary { return readers }
        }
        preconditionFailure("the last piece has no next piece to stop at")
    }

    /// Checks the elements from here (the next one starts after blanks)
    /// through the array's `]`, or until an element would start at or past
    /// `boundary`; `reader` reads each.
    private mutating func checkElements<Reader: JSONElementReader>(
        until boundary: Int?, with reader: inout Reader
    ) throws -> PieceEnd {
        while true {
            skipWhitespace()
            if let boundary, position >= boundary { return position == boundary ? .boundary : .overshot }
            let start = position
            var cursor = DirectJSONCursor(bytes, at: start)
            if reader.read(&cursor) {
                position = cursor.position
            } else {
                if !quickSkipValue() {
                    position = start
                    try skipValue()
                }
                let text = bytes
                let depth = depth
                try reader.read {
                    var tree = JSONScanner(text, at: start, depth: depth)
                    return try tree.value()
                }
            }
            guard try nextElement() else { return .arrayEnd }
        }
    }

    /// Pieces handed out per thread: the threads take them one at a time,
    /// so one that gets less of the processor (the feed's decoding runs
    /// beside the tasks' reading) takes fewer, and none is left reading
    /// the last large piece alone.
    static let piecesPerJob = 8

    /// How many pieces `bytes` of text are checked in on `jobs` threads:
    /// ``piecesPerJob`` each, none smaller than a quarter of
    /// `piecewiseMinimum`, and at least one a thread.
    static func pieceCount(jobs: Int, bytes: Int, piecewiseMinimum: Int) -> Int {
        let bySize = piecewiseMinimum >= 4 ? bytes / (piecewiseMinimum / 4) : Int.max
        return max(jobs, min(jobs * piecesPerJob, bySize))
    }

    /// Up to `count - 1` guessed starts of elements after this position (the
    /// first element's start), in increasing order, splitting the bytes left
    /// into about equal shares.
    private func pieceStarts(_ count: Int) -> [Int] {
        // In an indented file, the blanks from the line end before the first
        // element: elements start after the same, places nested in them
        // after more.
        var lineStart = position
        while lineStart > 0, bytes[lineStart - 1] == 0x20 || bytes[lineStart - 1] == 0x09 { lineStart -= 1 }
        let indent = lineStart > 0 && bytes[lineStart - 1] == 0x0A ? (lineStart - 1)..<position : nil
        var starts: [Int] = []
        let left = bytes.count - position
        for share in 1..<count {
            let from = max(position + left / count * share, (starts.last ?? position) + 1)
            let end = position + left / count * (share + 1)
            if let start = elementStart(from: from, before: end, indent: indent) { starts.append(start) }
        }
        return starts
    }

    /// The first `{` at or after `from` and before `end` that follows a `}`
    /// and a `,` with only blanks between them, and the same blanks as the
    /// bytes in `indent` right before it.
    private func elementStart(from: Int, before end: Int, indent: Range<Int>?) -> Int? {
        func previousNonBlank(before index: Int) -> Int? {
            var index = index - 1
            while index >= 0, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index -= 1 }
            return index >= 0 ? index : nil
        }
        func indented(_ index: Int) -> Bool {
            guard let indent else { return true }
            return index >= indent.count && bytes[(index - indent.count)..<index].elementsEqual(bytes[indent])
        }
        var index = from
        while index < min(end, bytes.count) {
            defer { index += 1 }
            guard bytes[index] == UInt8(ascii: "{"), indented(index), let comma = previousNonBlank(before: index),
                bytes[comma] == UInt8(ascii: ","), let brace = previousNonBlank(before: comma),
                bytes[brace] == UInt8(ascii: "}")
            else { continue }
            return index
        }
        return nil
    }
}
