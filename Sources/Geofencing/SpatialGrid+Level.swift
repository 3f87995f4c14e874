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
        let offset = longitude - lonOrigin
        if offset >= 0, offset < 360 { return offset }  // the remainder below, without its call
        var x = offset.truncatingRemainder(dividingBy: 360)
        if x < 0 { x += 360 }
        return x
    }
}

/// The geometry of one level of the grid: rows × columns cells whose CSR
/// offsets start at `offsetBase` in the grid's flat `offsets` array.
///
/// Cells are numbered in 8 × 8 tiles (tile after tile, row-major inside a
/// tile), so that the offsets, entries and records of neighbouring cells
/// lie close together in memory: a track moving through the grid touches
/// few new cache lines per cell.
@usableFromInline struct GridLevel: Sendable {
    /// Cell height and width in degrees.
    @usableFromInline var cellLatitude: Double
    @usableFromInline var cellLongitude: Double
    @usableFromInline var inverseCellLatitude: Double
    @usableFromInline var inverseCellLongitude: Double
    @usableFromInline var rows: Int
    @usableFromInline var columns: Int
    /// Tiles per tile row.
    @usableFromInline var tileColumns: Int
    /// Where this level's offsets start in the flat array.
    @usableFromInline var offsetBase = 0

    init(cellLatitude: Double, cellLongitude: Double, frame: GridFrame) {
        self.cellLatitude = cellLatitude
        self.cellLongitude = cellLongitude
        inverseCellLatitude = 1 / cellLatitude
        inverseCellLongitude = 1 / cellLongitude
        rows = max(1, Int(((frame.latMax - frame.latMin) / cellLatitude).rounded(.up)))
        columns = max(1, Int((frame.xSpan / cellLongitude).rounded(.up)))
        tileColumns = (columns + 7) / 8
    }

    /// The number of cell numbers (rows and columns padded to whole tiles).
    var cellCount: Int { (rows + 7) / 8 * tileColumns * 64 }

    /// The number of a cell.
    @inlinable @inline(__always)
    func cellNumber(row: Int, column: Int) -> Int {
        ((row >> 3) * tileColumns + (column >> 3)) << 6 | (row & 7) << 3 | (column & 7)
    }

    /// The cell of grid coordinates inside the frame.
    @inlinable @inline(__always)
    func cell(y: Double, x: Double) -> Int {
        let row = min(Int(y * inverseCellLatitude), rows - 1)
        let column = min(Int(x * inverseCellLongitude), columns - 1)
        return cellNumber(row: row, column: column)
    }

    /// Calls `body` with every cell (level-local number) that the record's
    /// box touches, each once, widened by a hair so rounding never loses one.
    @inline(__always)
    func forEachCell(covering record: CandidateRecord, frame: GridFrame, _ body: (Int) -> Void) {
        let margin = 1e-7
        let low = max(frame.latMin, record.latitude - Double(record.halfLatitude) - margin)
        let high = min(frame.latMax, record.latitude + Double(record.halfLatitude) + margin)
        guard low <= high else { return }
        let row0 = row(low - frame.latMin)
        let row1 = row(high - frame.latMin)
        // One or two column ranges; (1, 0) is an empty range.
        var first = (0, columns - 1)
        var second = (1, 0)
        let half = Double(record.halfLongitude) + margin
        if half < 180 {
            let west = frame.x(record.longitude - half)
            let east = west + 2 * half
            if east <= 360 {
                first = west <= frame.xSpan ? (column(west), column(min(east, frame.xSpan))) : (1, 0)
            } else {
                // The box wraps past x = 360 back to 0.
                first = (0, column(min(east - 360, frame.xSpan)))
                if west <= frame.xSpan { second = (column(west), columns - 1) }
                if second.0 <= second.1, first.1 >= second.0 {
                    first = (0, columns - 1)
                    second = (1, 0)
                }
            }
        }
        for row in row0...row1 {
            if first.0 <= first.1 {
                for column in first.0...first.1 { body(cellNumber(row: row, column: column)) }
            }
            if second.0 <= second.1 {
                for column in second.0...second.1 { body(cellNumber(row: row, column: column)) }
            }
        }
    }

    /// The one cell (level-local number) a box touches, as
    /// ``forEachCell(covering:frame:_:)`` would call it for a record with
    /// that box; `nil` when it touches none or several. The same
    /// arithmetic, without the walk, and with the part that is the same on
    /// every level (``GridExtent``) worked out once.
    @inline(__always)
    func singleCell(covering extent: GridExtent) -> Int? {
        guard extent.yLow <= extent.yHigh else { return nil }
        let row0 = row(extent.yLow)
        guard row0 == row(extent.yHigh) else { return nil }
        guard !extent.allLongitudes else { return columns == 1 ? cellNumber(row: row0, column: 0) : nil }
        guard extent.fitsOnce else { return nil }
        let column0 = column(extent.west)
        guard column0 == column(extent.east) else { return nil }
        return cellNumber(row: row0, column: column0)
    }

    private func row(_ y: Double) -> Int { min(max(Int(y * inverseCellLatitude), 0), rows - 1) }
    private func column(_ x: Double) -> Int { min(max(Int(x * inverseCellLongitude), 0), columns - 1) }
}

/// A record's box in a frame's grid coordinates, widened as
/// ``GridLevel/forEachCell(covering:frame:_:)`` widens it: what
/// ``GridLevel/singleCell(covering:)`` needs, the same on every level.
struct GridExtent {
    /// The box's lowest and highest y, clamped to the frame
    /// (`yLow > yHigh`: the box misses the frame's latitudes).
    var yLow: Double
    var yHigh: Double
    /// The box spans every longitude.
    var allLongitudes: Bool
    /// The box's x range is one range that starts inside the frame (it
    /// does not wrap past x = 360).
    var fitsOnce: Bool
    /// The box's west x and its east x, clamped to the frame.
    var west: Double
    var east: Double

    @inline(__always)
    init(covering record: CandidateRecord, frame: GridFrame) {
        let margin = 1e-7
        yLow = max(frame.latMin, record.latitude - Double(record.halfLatitude) - margin) - frame.latMin
        yHigh = min(frame.latMax, record.latitude + Double(record.halfLatitude) + margin) - frame.latMin
        let half = Double(record.halfLongitude) + margin
        allLongitudes = half >= 180
        west = frame.x(record.longitude - half)
        let unclamped = west + 2 * half
        fitsOnce = unclamped <= 360 && west <= frame.xSpan
        east = min(unclamped, frame.xSpan)
    }
}
