/// The CRC a FIT file ends with (and a 14-byte header carries for its
/// first 12 bytes): CRC-16 with the reflected polynomial 0xA001 and a zero
/// start, over every byte before it.
struct FITCRC {
    /// The CRC of the bytes so far.
    private(set) var value: UInt16 = 0

    private static let table: [UInt16] = (0...255).map { byte in
        var crc = UInt16(byte)
        for _ in 0..<8 { crc = crc & 1 == 0 ? crc >> 1 : crc >> 1 ^ 0xA001 }
        return crc
    }

    /// Takes in `bytes`.
    mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        var crc = value
        for byte in bytes { crc = crc >> 8 ^ Self.table[Int(UInt8(truncatingIfNeeded: crc) ^ byte)] }
        value = crc
    }

    /// Takes in `count` zero bytes (a CRC of 0 stays 0).
    mutating func updateWithZeros(count: Int) {
        var crc = value
        for _ in 0..<count where crc != 0 { crc = crc >> 8 ^ Self.table[Int(UInt8(truncatingIfNeeded: crc))] }
        value = crc
    }

    /// `0x1A2B`.
    static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
