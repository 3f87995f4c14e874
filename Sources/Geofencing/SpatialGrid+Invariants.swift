import GeoCore

extension SpatialGrid {
    /// Traps unless the grid's internal structure is consistent. Runs after
    /// every rebuild in debug builds, and in tests after every change.
    ///
    /// Checks: table sizes agree; every level's offsets ascend from 0 to its
    /// slot count; each cell's keys ascend strictly (no duplicates); every
    /// key placed in the grid sits in exactly the cells its box covers at
    /// one level; every slot belongs to such a key or to a stale one (and
    /// the stale ones are counted); the overflow list and its positions
    /// agree; the counts add up.
    public func _checkInvariants() {
        precondition(records.count == placement.count && radii.count == placement.count, "table sizes differ")
        var cellsSeen = [Int](repeating: 0, count: placement.count)
        for level in levels {
            precondition(level.offsets.count == level.cellCount + 1, "offsets size")
            precondition(level.offsets.first == 0 && Int(level.offsets.last!) == level.slots.count, "offsets ends")
            for cell in 0..<level.cellCount {
                let range = Int(level.offsets[cell])..<Int(level.offsets[cell + 1])
                precondition(range.lowerBound <= range.upperBound, "offsets descend at cell \(cell)")
                var previous = -1
                for i in range {
                    let key = Int(level.slots[i])
                    precondition(key > previous, "cell \(cell) keys not strictly ascending")
                    previous = key
                    precondition(key < placement.count, "slot key \(key) out of range")
                    cellsSeen[key] += 1
                }
            }
        }
        var stale = 0
        var inGrid = 0
        for key in placement.indices {
            switch placement[key] {
            case Placement.grid:
                inGrid += 1
                var expected = 0
                var found = false
                for level in levels {
                    var cells: [Int] = []
                    level.forEachCell(covering: records[key], frame: frame) { cells.append($0) }
                    let hits = cells.filter { cell in
                        level.slots[Int(level.offsets[cell])..<Int(level.offsets[cell + 1])].contains(UInt32(key))
                    }
                    if !hits.isEmpty {
                        precondition(!found, "key \(key) in two levels")
                        precondition(hits.count == cells.count, "key \(key) missing from covered cells")
                        found = true
                        expected = cells.count
                    }
                }
                precondition(found, "grid key \(key) not in any cell")
                precondition(cellsSeen[key] == expected, "key \(key) in cells its box does not cover")
            case Placement.overflow:
                precondition(overflowPosition[key].map { overflow[$0] == UInt32(key) } == true, "overflow position of \(key)")
                if cellsSeen[key] > 0 { stale += 1 }
            default:
                precondition(areas[key] == nil, "absent key \(key) keeps an area")
                if cellsSeen[key] > 0 { stale += 1 }
            }
        }
        precondition(inGrid == gridCount, "grid count \(gridCount) but \(inGrid) keys placed")
        precondition(stale == staleCount, "stale count \(staleCount) but \(stale) stale keys")
        precondition(overflowPosition.count == overflow.count, "overflow positions")
        precondition(Set(overflow).count == overflow.count, "overflow duplicates")
    }
}

extension SpatialGrid {
    /// How many entries a query at `point` looks at (cell entries on every
    /// level plus the overflow list) before the prefilter: the benchmark's
    /// "candidates per position".
    public func candidateCount(at point: Coordinate) -> Int {
        var total = overflow.count
        let lat = point.latitude
        guard lat >= frame.latMin, lat <= frame.latMax else { return total }
        let x = frame.x(point.longitude)
        guard x <= frame.xSpan else { return total }
        for level in levels {
            let cell = level.cell(y: lat - frame.latMin, x: x)
            total += Int(level.offsets[cell + 1] - level.offsets[cell])
        }
        return total
    }
}
