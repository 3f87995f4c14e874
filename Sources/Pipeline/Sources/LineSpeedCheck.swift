/// Watches the first bytes a serial receiver sends after it is opened for
/// one NMEA sentence, to tell a person whose receiver talks at another
/// speed.
///
/// Read at the wrong speed, a serial line turns each character into others:
/// no `$GPGGA,…*hh` comes through whole, and the decoder only reports
/// garbage. A receiver in a binary protocol (u-blox UBX, SiRF) looks the
/// same. A sentence here is a `$` or `!`, at least five printable
/// characters, and either `*` with a checksum that agrees or a line end.
struct LineSpeedCheck {
    /// The speed the device was opened at.
    let baud: Int
    /// How many bytes may come without a sentence before it is said.
    let limit: Int
    /// The bytes taken so far.
    private(set) var bytesSeen = 0
    /// Whether the check is over (a sentence came, or the limit passed).
    private(set) var isDone = false
    private var state = State.outside

    private enum State {
        case outside
        case body(length: Int, checksum: UInt8)
        case checksum(length: Int, expected: UInt8, digits: Int, value: UInt8)
    }

    /// A check of a device opened at `baud` that speaks after `limit` bytes
    /// without a sentence (1 KiB: a dozen sentences, two seconds at 4800 baud).
    init(baud: Int, limit: Int = 1024) {
        self.baud = baud
        self.limit = limit
    }

    /// Takes the next chunk read; `true` once, for the chunk with which
    /// `limit` bytes have come without a sentence.
    mutating func take(_ chunk: [UInt8]) -> Bool {
        guard !isDone else { return false }
        for byte in chunk {
            bytesSeen += 1
            if step(byte) {
                isDone = true
                return false
            }
            if bytesSeen >= limit {
                isDone = true
                return true
            }
        }
        return false
    }

    /// Moves the scanner on by one byte; `true` when it ends a sentence.
    private mutating func step(_ byte: UInt8) -> Bool {
        let starts = byte == UInt8(ascii: "$") || byte == UInt8(ascii: "!")
        switch state {
        case .outside:
            if starts { state = .body(length: 0, checksum: 0) }
        case .body(let length, let checksum):
            if starts {
                state = .body(length: 0, checksum: 0)
            } else if byte == UInt8(ascii: "*") {
                state = .checksum(length: length, expected: checksum, digits: 0, value: 0)
            } else if byte == 0x0D || byte == 0x0A {
                state = .outside
                return length >= 5
            } else if (0x20...0x7E).contains(byte), length < 82 {
                state = .body(length: length + 1, checksum: checksum ^ byte)
            } else {
                state = .outside
            }
        case .checksum(let length, let expected, let digits, let value):
            guard let digit = Self.hexValue(byte) else {
                state = starts ? .body(length: 0, checksum: 0) : .outside
                return false
            }
            let sum = value << 4 | digit
            guard digits == 1 else {
                state = .checksum(length: length, expected: expected, digits: 1, value: sum)
                return false
            }
            state = .outside
            return length >= 5 && sum == expected
        }
        return false
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
