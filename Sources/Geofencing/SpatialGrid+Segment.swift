import GeoCore

extension SpatialGrid {
    /// The two queries of a fix that ends a segment, in one walk when they
    /// visit the same cells: calls `inside` with the key of every region
    /// containing `point`, in the order of ``forEachRegion(containing:_:)``,
    /// then `near` with the key of every other region that
    /// ``forEachCandidate(intersecting:within:of:_:)`` would give for `box`
    /// (possibly a few more; never fewer).
    ///
    /// One walk serves both when, on every level, `box` (which holds
    /// `point`) lies in a single cell and no region waits in the overflow
    /// list: each candidate's haversine h is then computed once. Otherwise
    /// the two queries run one after the other.
    public func forEachRegion(
        containing point: Coordinate, segmentBox box: BoundingBox, within metres: Double, inside: (Int) -> Void,
        near: (Int) -> Void
    ) {
        let query = CandidateRecord(queryBox: box)
        let y = point.latitude - frame.latMin
        var x = point.longitude - frame.lonOrigin
        if x < 0 { x += 360 }
        let extent = GridExtent(covering: query, frame: frame)
        let fused =
            overflow.isEmpty && frame.contains(point)
            && levels.allSatisfy { level in level.singleCell(covering: extent) == level.cell(y: y, x: x) }
        guard fused else {
            // The containing regions' keys, for `near` to pass over: a few,
            // kept on the stack.
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 16) { buffer in
                var count = 0
                var more: [Int] = []
                forEachRegion(containing: point) { key in
                    inside(key)
                    if count < buffer.count {
                        buffer[count] = key
                        count += 1
                    } else {
                        more.append(key)
                    }
                }
                let first = UnsafeBufferPointer(rebasing: buffer[..<count])
                forEachCandidate(intersecting: box, within: metres, of: point) { key in
                    if !first.contains(key), !more.contains(key) { near(key) }
                }
            }
            return
        }
        let lat = point.latitude
        let lon = point.longitude
        let cosPoint = latitudeCosine(degrees: lat)
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { nearBuffer in
            var nearCount = 0
            // Past the buffer's 64; `nil` until then: an empty array left at
            // the end is released, a call a query.
            var nearIDs: [UInt32]?
            offsets.withUnsafeBufferPointer { offsets in
                slots.withUnsafeBufferPointer { slots in
                    records.withUnsafeBufferPointer { records in
                        radii.withUnsafeBufferPointer { radii in
                            for level in levels {
                                let base = level.offsetBase + level.cell(y: y, x: x)
                                for slot in Int(offsets[base])..<Int(offsets[base + 1]) {
                                    let id = Int(slots[slot])
                                    let record = records[id]
                                    let isInside: Bool
                                    let isNear: Bool
                                    if record.threshold < 0 {
                                        isInside = passesPrefilter(id, point) && slowContains(id, point)
                                        isNear = !isInside && record.overlaps(query)
                                    } else {
                                        let bounds = record.haversineBounds(
                                            latitude: lat, longitude: lon, cosPoint: cosPoint)
                                        if bounds.upper < record.threshold - bounds.band {
                                            isInside = true
                                        } else if bounds.lower > record.threshold + bounds.band {
                                            isInside = false
                                        } else {
                                            isInside = passesPrefilter(id, point) && slowContains(id, point)
                                        }
                                        isNear =
                                            !isInside
                                            && Self.mayReach(lower: bounds.lower, radius: radii[id], metres: metres)
                                    }
                                    if isInside { inside(Int(keyOf[id])) }
                                    guard isNear else { continue }
                                    if nearCount < 64 {
                                        nearBuffer[nearCount] = UInt32(truncatingIfNeeded: id)
                                        nearCount += 1
                                    } else {
                                        let more = UInt32(truncatingIfNeeded: id)
                                        if nearIDs == nil { nearIDs = [more] } else { nearIDs!.append(more) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            for index in 0..<nearCount { near(Int(keyOf[Int(nearBuffer[index])])) }
            if let nearIDs { for id in nearIDs { near(Int(keyOf[Int(id)])) } }
        }
    }
}

extension GridFrame {
    /// Whether `point` falls into a grid cell (as ``SpatialGrid/forEachRegion(containing:_:)`` decides).
    func contains(_ point: Coordinate) -> Bool {
        let lat = point.latitude
        let lon = point.longitude
        guard lat >= -90, lat <= 90, lon >= -180, lon <= 180 else { return false }
        let y = lat - latMin
        var x = lon - lonOrigin
        if x < 0 { x += 360 }
        return y >= 0 && lat <= latMax && x <= xSpan
    }
}
