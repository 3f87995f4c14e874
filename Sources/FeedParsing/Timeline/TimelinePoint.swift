import GeoCore

/// A position as Google's on-device Timeline export writes it, in one of
/// three forms: Android's `"50.0506312°, 14.3439906°"` (the degree signs
/// sometimes escaped, `\u00b0`, sometimes left out), the same without a
/// blank, and iOS's `"geo:27.720022,-97.347951"`, whose third number, when
/// there is one, is the altitude.
struct TimelinePoint: Equatable {
    var coordinate: Coordinate
    var altitude: Double?

    init(coordinate: Coordinate, altitude: Double?) {
        self.coordinate = coordinate
        self.altitude = altitude
    }

    /// Reads the text between a JSON string's quotes; `nil` for anything
    /// else, a coordinate out of range included.
    init?(_ scalar: JSONScalar) {
        guard case .string(let raw) = scalar else { return nil }
        guard raw.contains(0x5C) else {
            guard let point = Self.parse(raw) else { return nil }
            self = point
            return
        }
        guard var text = scalar.string,
            let point = text.withUTF8({ Self.parse($0) })
        else { return nil }
        self = point
    }

    /// Reads a place's position: a string (iOS's `geo:`), or an object
    /// with a `latLng` string (Android's).
    init?(place member: JSONMember) {
        let text: JSONScalar?
        switch member {
        case .scalar(let scalar): text = scalar
        case .nested(let object): text = JSONMember.named("latLng", in: object)?.scalar
        }
        guard let text, let point = TimelinePoint(text) else { return nil }
        self = point
    }

    private static func parse(_ text: UnsafeBufferPointer<UInt8>) -> TimelinePoint? {
        var reader = Reader(text: text)
        reader.skip("geo:")
        guard let latitude = reader.number(), reader.separator(), let longitude = reader.number() else { return nil }
        var altitude: Double?
        if reader.separator() {
            guard let value = reader.number() else { return nil }
            altitude = value
        }
        guard reader.isAtEnd else { return nil }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        return coordinate.isValid ? TimelinePoint(coordinate: coordinate, altitude: altitude) : nil
    }

    /// Reads numbers, each with an optional degree sign, and the commas
    /// between them, blanks aside.
    private struct Reader {
        let text: UnsafeBufferPointer<UInt8>
        var position = 0

        var isAtEnd: Bool {
            mutating get {
                skipBlanks()
                return position == text.count
            }
        }

        mutating func skip(_ prefix: StaticString) {
            skipBlanks()
            let bytes = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
            if text[position...].starts(with: bytes) { position += bytes.count }
        }

        /// A decimal number and the degree sign after it, if any.
        mutating func number() -> Double? {
            skipBlanks()
            let start = position
            while position < text.count,
                text[position] == 0x2D || text[position] == 0x2B || text[position] == 0x2E
                    || (text[position] &- 0x30) < 10
            {
                position += 1
            }
            guard position > start, let value = ASCIIDecimal.double(text, start, position) else { return nil }
            // U+00B0 DEGREE SIGN in UTF-8.
            if position + 1 < text.count, text[position] == 0xC2, text[position + 1] == 0xB0 { position += 2 }
            return value
        }

        /// A comma, blanks aside: whether there was one.
        mutating func separator() -> Bool {
            skipBlanks()
            guard position < text.count, text[position] == 0x2C else { return false }
            position += 1
            return true
        }

        private mutating func skipBlanks() {
            while position < text.count, text[position] == 0x20 || text[position] == 0x09 { position += 1 }
        }
    }
}
