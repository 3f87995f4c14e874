extension PackedWriter {
    /// Appends an instant and its fraction digits.
    package mutating func write(_ time: Timestamp) {
        write(time.nanoseconds)
        write(time.fractionDigits)
    }

    /// Appends a latitude and a longitude.
    package mutating func write(_ point: Coordinate) {
        write(point.latitude)
        write(point.longitude)
    }

    /// Appends a fix: a byte saying which optional fields follow, then the
    /// coordinate and those fields.
    package mutating func write(_ fix: Fix) {
        let optionals = [fix.elevation, fix.speed, fix.course, fix.hdop, fix.accuracy]
        var present: UInt8 = fix.time == nil ? 0 : 1
        for (bit, value) in optionals.enumerated() where value != nil { present |= 2 << bit }
        if fix.device != nil { present |= 0x40 }
        write(present)
        if let time = fix.time { write(time) }
        write(fix.coordinate)
        for case let value? in optionals { write(value) }
        if let device = fix.device { write(device) }
    }
}

extension PackedReader {
    /// Reads an instant written by ``PackedWriter``.
    package mutating func readTimestamp() -> Timestamp {
        let nanoseconds = readInt64()
        return Timestamp(nanoseconds: nanoseconds, fractionDigits: readByte())
    }

    /// Reads a coordinate written by ``PackedWriter``.
    package mutating func readCoordinate() -> Coordinate {
        let latitude = readDouble()
        return Coordinate(latitude: latitude, longitude: readDouble())
    }

    /// Reads a fix written by ``PackedWriter``.
    package mutating func readFix() -> Fix {
        let present = readByte()
        let time = present & 1 != 0 ? readTimestamp() : nil
        var fix = Fix(time: time, coordinate: readCoordinate())
        let fields: [WritableKeyPath<Fix, Double?>] = [\.elevation, \.speed, \.course, \.hdop, \.accuracy]
        for (bit, field) in fields.enumerated() where present & (2 << bit) != 0 { fix[keyPath: field] = readDouble() }
        if present & 0x40 != 0 { fix.device = readString() }
        return fix
    }
}
