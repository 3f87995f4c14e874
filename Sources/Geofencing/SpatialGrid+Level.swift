import GeoCore

/// The latitude range and longitude arc a grid covers (degrees).
///
/// A point's grid coordinates are y = lat − `latMin` and x = (lon −
/// `lonOrigin`) mod 360; points with y outside 0…(latMax − latMin) or
/// x > `xSpan` are in no grid cell.
@usableFromInline struct GridFrame: Sendable {
    @usableFromInline var latMin: Double
    @usableFromInline var latMax: Double
    @usableFromInline var lonOrigin: Double
    @usableFromInline var xSpan: Double

    /// A frame no point falls into.
    static let empty = GridFrame(latMin: 1, latMax: -1, lonOrigin: 0, xSpan: -1)

    /// x of a longitude, in 0..<360.
    @inlinable func x(_ longitude: Double) -> Double {
        var x = (longitude - lonOrigin).truncatingRemainder(dividingBy: 360)
        if x < 0 { x += 360 }
        return x
    }
}

/// One level of the grid: a rows × columns array of cells in CSR form.
@usableFromInline struct GridLevel: Sendable {
    /// Cell height and width in degrees.
    @usableFromInline var cellLatitude: Double
    @usableFromInline var cellLongitude: Double
    @usableFromInline var inverseCellLatitude: Double
    @usableFromInline var inverseCellLongitude: Double
    @usableFromInline var rows: Int
    @usableFromInline var columns: Int
    /// `offsets[c]..<offsets[c + 1]` are cell c's entries in `slots`.
    @usableFromInline var offsets: [UInt32] = []
    /// Region keys, cell after cell, ascending within a cell.
    @usableFromInline var slots: [UInt32] = []

    init(cellLatitude: Double, cellLongitude: Double, frame: GridFrame) {
        self.cellLatitude = cellLatitude
        self.cellLongitude = cellLongitude
        inverseCellLatitude = 1 / cellLatitude
        inverseCellLongitude = 1 / cellLongitude
        rows = max(1, Int(((frame.latMax - frame.latMin) / cellLatitude).rounded(.up)))
        columns = max(1, Int((frame.xSpan / cellLongitude).rounded(.up)))
    }

    /// The number of cells.
    var cellCount: Int { rows * columns }

    /// The cell of grid coordinates inside the frame.
    @inlinable @inline(__always)
    func cell(y: Double, x: Double) -> Int {
        let row = min(Int(y * inverseCellLatitude), rows - 1)
        let column = min(Int(x * inverseCellLongitude), columns - 1)
        return row * columns + column
    }

    /// Calls `body` with every cell that the record's box touches (each
    /// once), widened by a hair so rounding never loses a cell.
    func forEachCell(covering record: CandidateRecord, frame: GridFrame, _ body: (Int) -> Void) {
        let margin = 1e-7
        let low = max(frame.latMin, record.latitude - record.halfLatitude - margin)
        let high = min(frame.latMax, record.latitude + record.halfLatitude + margin)
        guard low <= high else { return }
        let row0 = row(low - frame.latMin)
        let row1 = row(high - frame.latMin)
        for (column0, column1) in columnRanges(of: record, frame: frame, margin: margin) {
            for row in row0...row1 {
                for column in column0...column1 { body(row * columns + column) }
            }
        }
    }

    private func row(_ y: Double) -> Int { min(max(Int(y * inverseCellLatitude), 0), rows - 1) }
    private func column(_ x: Double) -> Int { min(max(Int(x * inverseCellLongitude), 0), columns - 1) }

    /// The (one or two) column ranges of a record's longitude extent.
    private func columnRanges(of record: CandidateRecord, frame: GridFrame, margin: Double) -> [(Int, Int)] {
        let width = 2 * (record.halfLongitude + margin)
        if record.halfLongitude >= 180 || width >= 360 { return [(0, columns - 1)] }
        let west = frame.x(record.longitude - record.halfLongitude - margin)
        let east = west + width
        if east <= 360 {
            guard west <= frame.xSpan else { return [] }
            return [(column(west), column(min(east, frame.xSpan)))]
        }
        // The box wraps past x = 360 back to 0.
        var ranges: [(Int, Int)] = [(0, column(min(east - 360, frame.xSpan)))]
        if west <= frame.xSpan { ranges.append((column(west), columns - 1)) }
        if ranges.count == 2, ranges[0].1 >= ranges[1].0 { return [(0, columns - 1)] }
        return ranges
    }
}
