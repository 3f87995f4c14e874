import GeoCore

extension SpatialGrid {
    /// Adds `shape` under `key`, replacing any shape already there.
    ///
    /// The region goes to the overflow list until the next rebuild.
    public mutating func insert(_ shape: Shape, forKey key: Int) {
        precondition(key >= 0 && key < Int(Self.absent), "region keys are 0..<2³²−1")
        remove(key: key)
        if key >= internalOf.count {
            internalOf.append(contentsOf: repeatElement(Self.absent, count: key + 1 - internalOf.count))
        }
        let id = UInt32(records.count)
        append(shape, forKey: key)
        internalOf[key] = id
        overflowPosition[id] = overflow.count
        overflow.append(id)
        if overflow.count > max(64, gridCount / 8) { rebuild() }
    }

    /// Removes the shape under `key`; returns whether there was one.
    @discardableResult public mutating func remove(key: Int) -> Bool {
        guard key >= 0, key < internalOf.count, internalOf[key] != Self.absent else { return false }
        let id = internalOf[key]
        internalOf[key] = Self.absent
        records[Int(id)].halfLatitude = -1
        records[Int(id)].threshold = -1
        areas[id] = nil
        if let position = overflowPosition.removeValue(forKey: id) {
            let last = overflow.removeLast()
            if position < overflow.count {
                overflow[position] = last
                overflowPosition[last] = position
            }
        } else {
            gridCount -= 1
            staleCount += 1
            if staleCount > max(64, gridCount / 2) { rebuild() }
        }
        return true
    }

    /// Appends the record of `shape` as a new internal id owned by `key`.
    mutating func append(_ shape: Shape, forKey key: Int) {
        let id = UInt32(records.count)
        keyOf.append(UInt32(key))
        switch shape {
        case .circle(let circle):
            records.append(CandidateRecord(circle: circle))
            radii.append(circle.radius)
        case .area(let area):
            records.append(CandidateRecord(box: area.boundingBox, threshold: -1))
            radii.append(0)
            areas[id] = area
        }
    }

    /// Renumbers the live regions in cell order, lays out fresh grid levels
    /// and empties the overflow list. O(n · replication).
    public mutating func rebuild() {
        var live: [UInt32] = []
        live.reserveCapacity(count)
        for id in records.indices where records[id].isLive { live.append(UInt32(id)) }
        overflow = []
        overflowPosition = [:]
        gridCount = live.count
        staleCount = 0
        levels = []
        offsets = []
        slots = []
        guard !live.isEmpty else {
            frame = .empty
            compact(live)
            return
        }
        frame = Self.frame(covering: live, records: records)
        var layouts = Self.levelLayouts(for: live, records: records, frame: frame)
        // Renumber in row-major order of the level-0 cell of each centre.
        let finest = layouts[0]
        var cellOf = [UInt32](repeating: 0, count: live.count)
        var perCell = [UInt32](repeating: 0, count: finest.cellCount + 1)
        for (i, id) in live.enumerated() {
            let record = records[Int(id)]
            let y = min(max(record.latitude - frame.latMin, 0), frame.latMax - frame.latMin)
            let x = min(frame.x(record.longitude), frame.xSpan)
            let cell = finest.cell(y: y, x: x)
            cellOf[i] = UInt32(cell)
            perCell[cell + 1] += 1
        }
        for cell in 0..<finest.cellCount { perCell[cell + 1] += perCell[cell] }
        var order = [UInt32](repeating: 0, count: live.count)
        for (i, id) in live.enumerated() {
            let cell = Int(cellOf[i])
            order[Int(perCell[cell])] = id
            perCell[cell] += 1
        }
        cellOf = []
        perCell = []
        live = []
        compact(order)

        // Assign each region the finest level where its box spans ≤ 4 cells.
        let n = records.count
        var levelOf = [UInt8](repeating: 0, count: n)
        for id in 0..<n {
            let record = records[id]
            var level = layouts.count - 1
            for (index, layout) in layouts.enumerated() {
                let tall = Double(record.halfLatitude) <= 2 * layout.cellLatitude
                let wide =
                    record.halfLongitude >= 180
                    ? layout.columns <= 4 : Double(record.halfLongitude) <= 2 * layout.cellLongitude
                if tall && wide {
                    level = index
                    break
                }
            }
            levelOf[id] = UInt8(level)
        }
        var base = 0
        for index in layouts.indices {
            layouts[index].offsetBase = base
            base += layouts[index].cellCount + 1
        }
        // counts[cell]: the cell's entries, then (prefix sums over all levels
        // at once: slots are level after level) where they end, then, filled
        // from the end, where they start — the offsets themselves.
        var counts = [UInt32](repeating: 0, count: base)
        for id in 0..<n {
            let layout = layouts[Int(levelOf[id])]
            layout.forEachCell(covering: records[id], frame: frame) { counts[layout.offsetBase + $0] += 1 }
        }
        var running: UInt32 = 0
        for index in layouts.indices {
            let layout = layouts[index]
            for cell in 0..<layout.cellCount {
                running += counts[layout.offsetBase + cell]
                counts[layout.offsetBase + cell] = running
            }
            counts[layout.offsetBase + layout.cellCount] = running
        }
        var entries = [UInt32](repeating: 0, count: Int(running))
        // Backwards, so that each cell's ids end up ascending.
        for id in (0..<n).reversed() {
            let layout = layouts[Int(levelOf[id])]
            layout.forEachCell(covering: records[id], frame: frame) { cell in
                let slot = layout.offsetBase + cell
                counts[slot] -= 1
                entries[Int(counts[slot])] = UInt32(id)
            }
        }
        levelOf = []
        // Keep only levels with entries, their offsets moved down in place.
        var kept = 0
        for layout in layouts where counts[layout.offsetBase + layout.cellCount] > counts[layout.offsetBase] {
            var level = layout
            level.offsetBase = kept
            for cell in 0...layout.cellCount { counts[kept + cell] = counts[layout.offsetBase + cell] }
            kept += layout.cellCount + 1
            levels.append(level)
        }
        counts.removeLast(counts.count - kept)
        offsets = counts
        slots = entries
    }

    /// Keeps only the records of `ids`, renumbered 0..<ids.count in that
    /// order. In place when every record is kept (a first build), so that
    /// ten million regions are not held twice.
    private mutating func compact(_ ids: [UInt32]) {
        guard ids.count == records.count else { return copyCompact(ids) }
        var newAreas: [UInt32: Area] = [:]
        for (newID, oldID) in ids.enumerated() where !areas.isEmpty {
            if let area = areas[oldID] { newAreas[UInt32(newID)] = area }
        }
        // Follow each cycle of the permutation: new[i] = old[ids[i]].
        var pending = ids
        for start in pending.indices where pending[start] != UInt32(start) {
            let saved = (records[start], keyOf[start], radii[start])
            var position = start
            while true {
                let source = Int(pending[position])
                pending[position] = UInt32(position)
                if source == start {
                    (records[position], keyOf[position], radii[position]) = saved
                    break
                }
                (records[position], keyOf[position], radii[position]) = (records[source], keyOf[source], radii[source])
                position = source
            }
        }
        for (newID, key) in keyOf.enumerated() { internalOf[Int(key)] = UInt32(newID) }
        areas = newAreas
    }

    /// ``compact(_:)`` into fresh arrays, dropping the records not in `ids`.
    private mutating func copyCompact(_ ids: [UInt32]) {
        var newRecords: [CandidateRecord] = []
        var newKeys: [UInt32] = []
        var newRadii: [Double] = []
        var newAreas: [UInt32: Area] = [:]
        newRecords.reserveCapacity(ids.count)
        newKeys.reserveCapacity(ids.count)
        newRadii.reserveCapacity(ids.count)
        for (newID, oldID) in ids.enumerated() {
            let old = Int(oldID)
            newRecords.append(records[old])
            newKeys.append(keyOf[old])
            newRadii.append(radii[old])
            if let area = areas[oldID] { newAreas[UInt32(newID)] = area }
            internalOf[Int(keyOf[old])] = UInt32(newID)
        }
        records = newRecords
        keyOf = newKeys
        radii = newRadii
        areas = newAreas
    }

    /// The latitude range and shortest longitude arc holding every box.
    static func frame(covering live: [UInt32], records: [CandidateRecord]) -> GridFrame {
        var latMin = 90.0
        var latMax = -90.0
        // Longitude coverage in 0.1° bins (a difference array, circular).
        let bins = 3600
        var change = [Int32](repeating: 0, count: bins + 1)
        var fullCircle = false
        for id in live {
            let record = records[Int(id)]
            let half = Double(record.halfLongitude)
            latMin = min(latMin, record.latitude - Double(record.halfLatitude))
            latMax = max(latMax, record.latitude + Double(record.halfLatitude))
            if fullCircle { continue }
            let first = Int(((record.longitude - half - 1e-6 + 180) * 10).rounded(.down))
            let last = Int(((record.longitude + half + 1e-6 + 180) * 10).rounded(.down))
            if half >= 180 || last - first >= bins - 1 {
                fullCircle = true
                continue
            }
            let start = ((first % bins) + bins) % bins
            let end = ((last % bins) + bins) % bins
            change[start] += 1
            change[end + 1] -= 1
            if start > end {  // wraps: start..<bins and 0...end
                change[0] += 1
                change[bins] -= 1
            }
        }
        let margin = 1e-7
        latMin = max(-90, latMin - margin)
        latMax = min(90, latMax + margin)
        var gapStart = 0
        var gapLength = 0
        if !fullCircle {
            var covered = [Bool](repeating: false, count: bins)
            var depth: Int32 = 0
            for bin in 0..<bins {
                depth += change[bin]
                covered[bin] = depth > 0
            }
            // The longest circular run of empty bins.
            var run = 0
            for step in 0..<(2 * bins) {
                if covered[step % bins] {
                    run = 0
                } else {
                    run += 1
                    if run > gapLength && run <= bins {
                        gapLength = run
                        gapStart = (step - run + 1) % bins
                    }
                }
            }
        }
        if gapLength == 0 {
            return GridFrame(latMin: latMin, latMax: latMax, lonOrigin: -180, xSpan: 360)
        }
        let originBin = (gapStart + gapLength) % bins
        return GridFrame(
            latMin: latMin, latMax: latMax, lonOrigin: -180 + Double(originBin) / 10,
            xSpan: Double(bins - gapLength) / 10)
    }

    /// Level layouts from the level-0 cell size up to a level of at most
    /// 4 × 4 cells (each level's cells 4× larger than the previous).
    static func levelLayouts(for live: [UInt32], records: [CandidateRecord], frame: GridFrame) -> [GridLevel] {
        // A deterministic sample of box heights and latitudes.
        let stride = max(1, live.count / 4096)
        var heights: [Double] = []
        var latitudes: [Double] = []
        for i in Swift.stride(from: 0, to: live.count, by: stride) {
            let record = records[Int(live[i])]
            heights.append(2 * Double(record.halfLatitude))
            latitudes.append(abs(record.latitude))
        }
        heights.sort()
        latitudes.sort()
        let median = heights[heights.count / 2]
        let upper = heights[heights.count * 9 / 10]
        let referenceLatitude = min(80, latitudes[latitudes.count / 2])
        let cosReference = cosine(degrees: referenceLatitude)
        let latSpan = frame.latMax - frame.latMin
        let surface = latSpan * frame.xSpan * cosReference
        // About six cells per region, and for small sets up to 65 536
        // cells in all (256 KB of offsets, which stay in cache).
        let cellsWanted = max(6 * Double(live.count), min(65_536, 64 * Double(live.count)))
        let density = (surface / cellsWanted).squareRoot()
        var cell = max(density, median / 2, upper / 4, 1e-6)
        let cellLimit = cellsWanted + 1024
        let cells = (latSpan / cell).rounded(.up) * (frame.xSpan / (cell / cosReference)).rounded(.up)
        if cells > cellLimit { cell *= (cells / cellLimit).squareRoot() * 1.01 }
        var layouts: [GridLevel] = []
        while true {
            let level = GridLevel(cellLatitude: cell, cellLongitude: cell / cosReference, frame: frame)
            layouts.append(level)
            if (level.rows <= 4 && level.columns <= 4) || layouts.count == 16 { break }
            cell *= 4
        }
        return layouts
    }
}
