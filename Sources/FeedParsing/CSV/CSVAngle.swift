/// Reads human-written angles in CSV cells, the forms GPSBabel's unicsv
/// accepts: `1.234°S`, `1°14.04′S`, `S1°14′2.4″`, `-1° 14.04′`,
/// `W 5° 40′ 40.8″`, with a decimal comma when the column separator is
/// not a comma. Used only when a cell is not a plain decimal number.
enum CSVAngle {
    /// The signed degrees of `bytes[start..<end]`, or `nil` if the cell is
    /// not an angle. `positive`/`negative` are the hemisphere letters
    /// allowed (`N`/`S` for latitude, `E`/`W` for longitude).
    static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, positive: UInt8, negative: UInt8,
        decimalComma: Bool
    ) -> Double? {
        var parts: [Double] = []
        var isNegative = false
        var sawHemisphere = false
        var number: [UInt8] = []
        func endNumber() -> Bool {
            guard !number.isEmpty else { return true }
            let value = number.withUnsafeBufferPointer { ASCIIDecimal.double($0, 0, $0.count) }
            number.removeAll()
            guard let value, parts.count < 3 else { return false }
            parts.append(value)
            return true
        }
        var i = start
        while i < end {
            let b = bytes[i]
            switch b {
            case 0x30...0x39, 0x2E:
                number.append(b)
            case 0x2C where decimalComma:
                number.append(0x2E)
            case 0x2D where parts.isEmpty && number.isEmpty && !isNegative:
                isNegative = true
            case positive, negative, positive | 0x20, negative | 0x20:
                guard !sawHemisphere, endNumber() else { return nil }
                sawHemisphere = true
                if b | 0x20 == negative | 0x20 { isNegative.toggle() }
            case 0x20, 0x27, 0x22:  // blank, ' and " as minute/second marks
                guard endNumber() else { return nil }
            case 0xC2 where i + 1 < end && bytes[i + 1] == 0xB0:  // °
                guard endNumber() else { return nil }
                i += 1
            case 0xE2 where i + 2 < end && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xB2 || bytes[i + 2] == 0xB3):  // ′ ″
                guard endNumber() else { return nil }
                i += 2
            default:
                return nil
            }
            i += 1
        }
        guard endNumber(), let degrees = parts.first else { return nil }
        let minutes = parts.count > 1 ? parts[1] : 0
        let seconds = parts.count > 2 ? parts[2] : 0
        guard minutes < 60, seconds < 60 else { return nil }
        let value = degrees + minutes / 60 + seconds / 3600
        return isNegative ? -value : value
    }
}
