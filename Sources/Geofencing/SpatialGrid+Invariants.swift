import GeoCore

extension SpatialGrid {
    /// Traps unless the grid's internal structure is consistent. The
    /// differential tests run it after every build and every change (so
    /// after every rebuild a change sets off); it is O(regions + cells).
    ///
    /// Checks: table sizes agree; keys and internal ids map to each other;
    /// each level's offsets ascend from its first to its last entry and the
    /// levels tile the entry array; each cell's ids ascend strictly (no
    /// duplicates); every live region outside the overflow list sits in
    /// exactly the cells its box covers at one level; dead regions still in
    /// cells are counted as stale; the overflow list and its positions agree
    /// and hold live regions in no cell; the counts add up.
    package func _checkInvariants() {
        precondition(records.count == keyOf.count && radii.count == keyOf.count, "table sizes differ")
        for (key, id) in internalOf.enumerated() where id != Self.absent {
            precondition(Int(id) < records.count && keyOf[Int(id)] == UInt32(key), "key \(key) ↔ id \(id)")
            precondition(records[Int(id)].isLive, "key \(key) maps to a dead record")
        }
        var live = 0
        for id in records.indices where records[id].isLive {
            live += 1
            precondition(internalOf[Int(keyOf[id])] == UInt32(id), "live id \(id) not its key's id")
        }
        precondition(live == count, "\(live) live records but count \(count)")
        var cellsSeen = [Int](repeating: 0, count: records.count)
        var expectedBase = 0
        for level in levels {
            precondition(level.offsetBase == expectedBase, "level offsets do not follow each other")
            expectedBase += level.cellCount + 1
            precondition(
                level.offsetBase == 0 || offsets[level.offsetBase] == offsets[level.offsetBase - 1],
                "levels' entries not contiguous")
            for cell in 0..<level.cellCount {
                let range = Int(offsets[level.offsetBase + cell])..<Int(offsets[level.offsetBase + cell + 1])
                var previous = -1
                for i in range {
                    let id = Int(slots[i])
                    precondition(id > previous, "cell \(cell) ids not strictly ascending")
                    previous = id
                    precondition(id < records.count, "cell entry \(id) out of range")
                    cellsSeen[id] += 1
                }
            }
        }
        precondition(expectedBase == offsets.count, "offsets size")
        precondition(offsets.first ?? 0 == 0 && Int(offsets.last ?? 0) == slots.count, "offsets ends")
        var stale = 0
        var inGrid = 0
        for id in records.indices {
            let inOverflow = overflowPosition[UInt32(id)] != nil
            if !records[id].isLive {
                precondition(!inOverflow && areas[UInt32(id)] == nil, "dead id \(id) in overflow or keeps an area")
                if cellsSeen[id] > 0 { stale += 1 }
                continue
            }
            if inOverflow {
                precondition(overflow[overflowPosition[UInt32(id)]!] == UInt32(id), "overflow position of \(id)")
                precondition(cellsSeen[id] == 0, "overflow id \(id) also in cells")
                continue
            }
            inGrid += 1
            var found = false
            for level in levels {
                var cells: [Int] = []
                level.forEachCell(covering: records[id], frame: frame) { cells.append($0) }
                let hits = cells.filter { cell in
                    let base = level.offsetBase + cell
                    return slots[Int(offsets[base])..<Int(offsets[base + 1])].contains(UInt32(id))
                }
                guard !hits.isEmpty else { continue }
                precondition(!found, "id \(id) in two levels")
                precondition(hits.count == cells.count, "id \(id) missing from cells its box covers")
                precondition(cellsSeen[id] == cells.count, "id \(id) in cells its box does not cover")
                found = true
            }
            precondition(found, "grid id \(id) in no cell")
        }
        precondition(inGrid == gridCount, "grid count \(gridCount) but \(inGrid) ids placed")
        precondition(stale == staleCount, "stale count \(staleCount) but \(stale) stale ids")
        precondition(overflowPosition.count == overflow.count && Set(overflow).count == overflow.count, "overflow")
    }

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
            let cell = level.offsetBase + level.cell(y: lat - frame.latMin, x: x)
            total += Int(offsets[cell + 1] - offsets[cell])
        }
        return total
    }
}
