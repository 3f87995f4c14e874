import GeoCore

/// Checking a large array of objects in pieces, one per thread.
///
/// The split points are guesses: each is an opening brace that follows a
/// closing brace and a comma, near an equal share of the remaining bytes.
/// Every piece is checked from its guess on, all at once; then, in order,
/// a piece counts only if the piece before it stopped exactly at its start,
/// between two elements of the array. A guess that fell inside a string or
/// a nested value is passed over by the piece before it, which then checks
/// the rest alone, so the outcome (and the first problem reported) is the
/// same as a check on one thread.
extension JSONScanner {
    /// The elements of an array in runs: where each run's first element
    /// starts, and how many elements the run has.
    typealias ElementRuns = [(start: Int, count: Int)]

    /// Below this many bytes of text left, an array is checked on one
    /// thread (unless told otherwise).
    static let piecewiseMinimum = 1 << 20

    /// How a piece's check ended.
    private enum PieceEnd: Sendable {
        /// At the next piece's start, between two elements.
        case boundary
        /// After the array's closing bracket.
        case arrayEnd
        /// Past the next piece's start, which was not between two elements.
        case overshot
    }

    /// One piece's runs, where it stopped, and how (or its problem).
    private struct Piece: Sendable {
        let runs: ElementRuns
        let position: Int
        let end: Result<PieceEnd, any Error>
    }

    /// The text under check, read (never written) by the pieces' threads.
    private struct SharedText: @unchecked Sendable {
        let bytes: UnsafeBufferPointer<UInt8>
    }

    /// Checks the array that starts here (at its `[`) through its `]`, and
    /// returns its elements in runs of at most `stride`; on up to `jobs`
    /// threads when `piecewiseMinimum` bytes of text or more are left.
    mutating func checkArray(runsOf stride: Int, jobs: Int, piecewiseMinimum: Int) throws -> ElementRuns {
        var runs: ElementRuns = []
        guard try beginArray() else { return runs }
        skipWhitespace()
        let starts = jobs > 1 && bytes.count - position >= piecewiseMinimum ? [position] + pieceStarts(jobs) : []
        guard starts.count > 1 else {
            _ = try checkElements(runsOf: stride, until: nil, into: &runs)
            return runs
        }
        let text = SharedText(bytes: bytes)
        let arrayDepth = depth
        let pieces = parallelMap(count: starts.count, jobs: jobs) { index in
            var scanner = JSONScanner(text.bytes, at: starts[index], depth: arrayDepth)
            var runs: ElementRuns = []
            let next = index + 1 < starts.count ? starts[index + 1] : nil
            let end = Result { try scanner.checkElements(runsOf: stride, until: next, into: &runs) }
            return Piece(runs: runs, position: scanner.position, end: end)
        }
        // Piece 0 starts where this scanner stands; each later piece counts
        // only once the piece before it ended exactly at its start.
        for piece in pieces {
            runs += piece.runs
            position = piece.position
            switch try piece.end.get() {
            case .boundary: continue
            case .arrayEnd: depth -= 1
            case .overshot: _ = try checkElements(runsOf: stride, until: nil, into: &runs)
            }
            return runs
        }
        preconditionFailure("the last piece has no next piece to stop at")
    }

    /// Checks the elements from here (the next one starts after blanks)
    /// through the array's `]`, or until an element would start at or past
    /// `boundary`; adds them to `runs` in runs of at most `stride`.
    private mutating func checkElements(
        runsOf stride: Int, until boundary: Int?, into runs: inout ElementRuns
    ) throws
        -> PieceEnd
    {
        while true {
            skipWhitespace()
            if let boundary, position >= boundary { return position == boundary ? .boundary : .overshot }
            if let last = runs.last, last.count < stride {
                runs[runs.count - 1].count += 1
            } else {
                runs.append((position, 1))
            }
            let start = position
            if !quickSkipValue() {
                position = start
                try skipValue()
            }
            guard try nextElement() else { return .arrayEnd }
        }
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
