/// What a FIT definition message says about the data messages of one local
/// message type: their global message, byte order and layout, with the
/// fields Repeat reads found once, here, rather than in every message.
struct FITMessageDefinition {
    /// Where a field lies in a data message (after its header byte), and how to read it.
    struct Field {
        let offset: Int
        let size: Int
        let type: FITBaseType
    }

    /// The global message numbers Repeat reads.
    enum Global {
        static let record: UInt16 = 20
        static let coursePoint: UInt16 = 32
    }

    /// The global message number (20 record, 32 course point…), or `nil`
    /// when the architecture byte was neither 0 nor 1 and nothing of these
    /// messages can be read (they are still framed and skipped).
    let globalNumber: UInt16?
    let isBigEndian: Bool
    /// The bytes of a data message after its header, developer fields included.
    let size: Int
    /// Field 253, the timestamp any message may carry.
    private(set) var timestamp: Field?
    /// A record's or course point's position, semicircles.
    private(set) var latitude: Field?
    private(set) var longitude: Field?
    /// A record's altitude (field 2, and 78 enhanced), speed (6, and 73
    /// enhanced) and GPS accuracy (31).
    private(set) var altitude: Field?
    private(set) var enhancedAltitude: Field?
    private(set) var speed: Field?
    private(set) var enhancedSpeed: Field?
    private(set) var accuracy: Field?
    /// A course point's time (field 1) and name (6).
    private(set) var coursePointTime: Field?
    private(set) var name: Field?

    /// The length of a definition message (after its header byte) whose
    /// first bytes are `bytes`, or `nil` while the bytes that say are not
    /// all there: 5 fixed bytes, 3 per field, and with developer fields
    /// their count and 3 per developer field.
    static func length(of bytes: UnsafeBufferPointer<UInt8>, hasDeveloperFields: Bool) -> Int? {
        guard bytes.count >= 5 else { return nil }
        let fixed = 5 + 3 * Int(bytes[4])
        guard hasDeveloperFields else { return fixed }
        guard bytes.count > fixed else { return nil }
        return fixed + 1 + 3 * Int(bytes[fixed])
    }

    /// Reads a whole definition message (after its header byte).
    init(_ bytes: UnsafeBufferPointer<UInt8>, hasDeveloperFields: Bool) {
        let architecture = bytes[1]
        isBigEndian = architecture == 1
        let number =
            isBigEndian ? UInt16(bytes[2]) << 8 | UInt16(bytes[3]) : UInt16(bytes[3]) << 8 | UInt16(bytes[2])
        globalNumber = architecture <= 1 ? number : nil
        let count = Int(bytes[4])
        var offset = 0
        var fields: [(number: UInt8, field: Field)] = []
        for index in 0..<count {
            let start = 5 + 3 * index
            let field = Field(offset: offset, size: Int(bytes[start + 1]), type: FITBaseType(bytes[start + 2]))
            offset += field.size
            if field.size >= field.type.width { fields.append((bytes[start], field)) }
        }
        if hasDeveloperFields {
            let developerStart = 5 + 3 * count
            for index in 0..<Int(bytes[developerStart]) { offset += Int(bytes[developerStart + 2 + 3 * index]) }
        }
        size = offset
        for (number, field) in fields { place(field, number: number) }
    }

    /// Keeps `field` under its meaning, when Repeat reads it.
    private mutating func place(_ field: Field, number: UInt8) {
        if number == 253 {
            timestamp = field
            return
        }
        switch (globalNumber, number) {
        case (Global.record, 0), (Global.coursePoint, 2): latitude = field
        case (Global.record, 1), (Global.coursePoint, 3): longitude = field
        case (Global.record, 2): altitude = field
        case (Global.record, 6): speed = field
        case (Global.record, 31): accuracy = field
        case (Global.record, 73): enhancedSpeed = field
        case (Global.record, 78): enhancedAltitude = field
        case (Global.coursePoint, 1): coursePointTime = field
        case (Global.coursePoint, 6) where field.type.number == 7: name = field
        default: break
        }
    }
}
