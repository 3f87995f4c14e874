import GeoCore

extension SpatialGrid {
    /// Adds `shape` under `key`, replacing any shape already there.
    ///
    /// The region goes to the overflow list until the next rebuild.
    public mutating func insert(_ shape: Shape, forKey key: Int) {
        precondition(key >= 0 && key < Int(UInt32.max), "region keys are 0..<2³²−1")
        remove(key: key)
        store(shape, forKey: key)
        placement[key] = Placement.overflow
        overflowPosition[key] = overflow.count
        overflow.append(UInt32(key))
        if overflow.count > max(64, gridCount / 8) { rebuild() }
    }

    /// Removes the shape under `key`; returns whether there was one.
    @discardableResult public mutating func remove(key: Int) -> Bool {
        guard key >= 0, key < placement.count else { return false }
        switch placement[key] {
        case Placement.grid:
            gridCount -= 1
            staleCount += 1
        case Placement.overflow:
            let position = overflowPosition.removeValue(forKey: key)!
            let last = overflow.removeLast()
            if position < overflow.count {
                overflow[position] = last
                overflowPosition[Int(last)] = position
            }
        default:
            return false
        }
        placement[key] = Placement.absent
        areas[key] = nil
        if staleCount > max(64, gridCount / 2) { rebuild() }
        return true
    }

    /// Writes the record of `shape` under `key`, growing the tables.
    mutating func store(_ shape: Shape, forKey key: Int) {
        if key >= records.count {
            let grow = key + 1 - records.count
            records.append(contentsOf: repeatElement(CandidateRecord(box: .init(south: 0, north: 0, west: 0, east: 0), threshold: -1), count: grow))
            radii.append(contentsOf: repeatElement(0, count: grow))
            placement.append(contentsOf: repeatElement(Placement.absent, count: grow))
        }
        switch shape {
        case .circle(let circle):
            records[key] = CandidateRecord(circle: circle)
            radii[key] = circle.radius
        case .area(let area):
            records[key] = CandidateRecord(box: area.boundingBox, threshold: -1)
            radii[key] = 0
            areas[key] = area
        }
    }

    /// Puts every present region into freshly laid-out grid levels and
    /// empties the overflow list. O(n · replication).
    public mutating func rebuild() {
        var live: [UInt32] = []
        live.reserveCapacity(count)
        for key in placement.indices where placement[key] != Placement.absent {
            placement[key] = Placement.grid
            live.append(UInt32(key))
        }
        overflow = []
        overflowPosition = [:]
        gridCount = live.count
        staleCount = 0
        levels = []
        guard !live.isEmpty else {
            frame = .empty
            return
        }
        frame = Self.frame(covering: live, records: records)
        let candidates = Self.levelLayouts(for: live, records: records, frame: frame)
        // Assign each region the finest level where its box spans ≤ 4 cells.
        var levelOf = [UInt8](repeating: 0, count: live.count)
        var counts = [[UInt32]](repeating: [], count: candidates.count)
        for (i, key) in live.enumerated() {
            let record = records[Int(key)]
            var level = candidates.count - 1
            for (index, candidate) in candidates.enumerated() {
                let tall = 2 * record.halfLatitude <= 4 * candidate.cellLatitude
                let wide = record.halfLongitude >= 180
                    ? candidate.columns <= 4 : 2 * record.halfLongitude <= 4 * candidate.cellLongitude
                if tall && wide {
                    level = index
                    break
                }
            }
            levelOf[i] = UInt8(level)
        }
        var built = candidates
        for index in built.indices {
            counts[index] = [UInt32](repeating: 0, count: built[index].cellCount + 1)
        }
        for (i, key) in live.enumerated() {
            let index = Int(levelOf[i])
            built[index].forEachCell(covering: records[Int(key)], frame: frame) { counts[index][$0 + 1] += 1 }
        }
        for index in built.indices {
            var offsets = counts[index]
            for cell in 0..<built[index].cellCount { offsets[cell + 1] += offsets[cell] }
            var fill = offsets
            var slots = [UInt32](repeating: 0, count: Int(offsets[built[index].cellCount]))
            for (i, key) in live.enumerated() where Int(levelOf[i]) == index {
                built[index].forEachCell(covering: records[Int(key)], frame: frame) { cell in
                    slots[Int(fill[cell])] = key
                    fill[cell] += 1
                }
            }
            built[index].offsets = offsets
            built[index].slots = slots
        }
        levels = built.filter { !$0.slots.isEmpty }
        #if DEBUG
        _checkInvariants()
        #endif
    }

    /// The latitude range and shortest longitude arc holding every box.
    static func frame(covering live: [UInt32], records: [CandidateRecord]) -> GridFrame {
        var latMin = 90.0
        var latMax = -90.0
        // Longitude coverage in 0.1° bins (a difference array, circular).
        let bins = 3600
        var change = [Int32](repeating: 0, count: bins + 1)
        var fullCircle = false
        for key in live {
            let record = records[Int(key)]
            latMin = min(latMin, record.latitude - record.halfLatitude)
            latMax = max(latMax, record.latitude + record.halfLatitude)
            if fullCircle { continue }
            let first = Int(((record.longitude - record.halfLongitude - 1e-6 + 180) * 10).rounded(.down))
            let last = Int(((record.longitude + record.halfLongitude + 1e-6 + 180) * 10).rounded(.down))
            if record.halfLongitude >= 180 || last - first >= bins - 1 {
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
            heights.append(2 * record.halfLatitude)
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
        let density = (surface / Double(2 * live.count)).squareRoot()
        var cell = max(density, median / 2, upper / 4, 1e-6)
        let cellLimit = 4.0 * Double(live.count) + 1024
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
