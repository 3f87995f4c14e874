import GeoCore

extension DeviceState {
    /// Appends the state to `writer`, for a device set aside.
    package func pack(into writer: inout PackedWriter) {
        writer.write(UInt8((lastTime == nil ? 0 : 1) | (lastPoint == nil ? 0 : 2)))
        if let lastTime { writer.write(lastTime) }
        if let lastPoint { writer.write(lastPoint) }
        writer.write(count: memberships.count)
        for (key, membership) in memberships {
            writer.write(count: key)
            switch membership {
            case .entering(let count):
                writer.write(UInt8(0))
                writer.write(count: count)
            case .inside(let since, let dwellReported, let exitCount):
                writer.write(UInt8(dwellReported ? 2 : 1))
                writer.write(since)
                writer.write(count: exitCount)
            }
        }
    }

    /// Reads a state that ``pack(into:)`` wrote.
    package init(unpacking reader: inout PackedReader) {
        let present = reader.readByte()
        self.init()
        lastTime = present & 1 != 0 ? reader.readTimestamp() : nil
        lastPoint = present & 2 != 0 ? reader.readCoordinate() : nil
        for _ in 0..<reader.readCount() {
            let key = reader.readCount()
            switch reader.readByte() {
            case 0: memberships[key] = .entering(count: reader.readCount())
            case let kind:
                let since = reader.readTimestamp()
                memberships[key] = .inside(since: since, dwellReported: kind == 2, exitCount: reader.readCount())
            }
        }
    }
}
