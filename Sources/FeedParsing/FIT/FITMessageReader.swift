import GeoCore

/// Turns a FIT file's data messages into fixes and waypoints: a record
/// (global message 20) with a position is a fix, a course point (32) a
/// waypoint, and any message's timestamp is the clock compressed
/// timestamps count from.
struct FITMessageReader {
    /// Seconds from 1970-01-01 to FIT's epoch, 1989-12-31T00:00:00Z.
    static let epochOffset: Int64 = 631_065_600
    /// FIT times below this are seconds since the device was switched on, not dates.
    static let smallestDate: UInt32 = 0x1000_0000
    /// Degrees in one semicircle, FIT's unit of latitude and longitude (2^31 of them make 180°).
    static let degreesPerSemicircle = 180.0 / 2_147_483_648.0

    let collectWaypoints: Bool
    private(set) var statistics = FeedStatistics()
    /// The last full timestamp, which a compressed header's 5 bits complete.
    private var clock: UInt32?

    init(collectWaypoints: Bool) {
        self.collectWaypoints = collectWaypoints
    }

    /// A new file of a chain: its compressed times count from its own timestamps.
    mutating func startFile() { clock = nil }

    /// Reads one data message: `bytes` after its header, laid out as
    /// `definition` says; `timeOffset` is a compressed timestamp header's
    /// 5 bits; `byteOffset` locates the message's header in the input.
    mutating func read(
        _ bytes: UnsafeBufferPointer<UInt8>, as definition: FITMessageDefinition, timeOffset: UInt8?, byteOffset: Int,
        into batch: inout FeedBatch
    ) {
        guard let global = definition.globalNumber else { return }
        func number(_ field: FITMessageDefinition.Field?) -> Double? {
            guard let field else { return nil }
            return field.type.value(in: bytes, at: field.offset, isBigEndian: definition.isBigEndian)
        }
        var time: UInt32?
        if let full = number(definition.timestamp) {
            time = UInt32(exactly: full)
        } else if let timeOffset, let clock {
            let low = UInt32(timeOffset)
            time = (clock & ~0x1F) &+ low &+ (low < clock & 0x1F ? 0x20 : 0)
        }
        if let time { clock = time }
        let location = FeedLocation(line: 0, byteOffset: byteOffset)
        /// The message's position, `nil` when either half has no value.
        var position: Coordinate? {
            guard let latitude = number(definition.latitude), let longitude = number(definition.longitude) else { return nil }
            return Coordinate(latitude: latitude * Self.degreesPerSemicircle, longitude: longitude * Self.degreesPerSemicircle)
        }
        switch global {
        case FITMessageDefinition.Global.record:
            guard let coordinate = position else {
                statistics.ignore("record without a position")
                return
            }
            guard coordinate.isValid else {
                batch.diagnostics.append(
                    FeedDiagnostic(
                        .badField, at: location,
                        "record position \(coordinate.latitude),\(coordinate.longitude) is out of range; skipped"))
                return
            }
            if timeOffset != nil, time == nil {
                batch.diagnostics.append(
                    FeedDiagnostic(
                        .missingField, at: location,
                        "record with a compressed time before any full timestamp to count it from; kept without a time"))
            }
            // (raw - 2500) / 5 rounds once, where raw / 5 - 500 would round twice.
            let altitude = (number(definition.enhancedAltitude) ?? number(definition.altitude)).map { ($0 - 2500) / 5 }
            let speed = (number(definition.enhancedSpeed) ?? number(definition.speed)).map { $0 / 1000 }
            batch.fixes.append(
                Fix(
                    time: date(time, at: location, into: &batch), coordinate: coordinate, elevation: altitude,
                    speed: speed, accuracy: number(definition.accuracy)))
        case FITMessageDefinition.Global.coursePoint:
            guard collectWaypoints else {
                statistics.ignore("course point")
                return
            }
            guard let coordinate = position, coordinate.isValid else { return }
            let pointTime = number(definition.coursePointTime).flatMap { UInt32(exactly: $0) }
            batch.waypoints.append(
                Waypoint(
                    name: text(definition.name, in: bytes), coordinate: coordinate,
                    time: date(pointTime, at: location, into: &batch)))
        default:
            break
        }
    }

    /// The UTC time of a FIT time, or `nil` for none or one counted from
    /// the device's start (reported).
    private func date(_ time: UInt32?, at location: FeedLocation, into batch: inout FeedBatch) -> Timestamp? {
        guard let time else { return nil }
        guard time >= Self.smallestDate else {
            batch.diagnostics.append(
                FeedDiagnostic(
                    .badField, at: location,
                    "time \(time) counts seconds since the device started, not a date; the point is kept without it"))
            return nil
        }
        return Timestamp(nanoseconds: (Int64(time) + Self.epochOffset) * 1_000_000_000)
    }

    /// A string field's text up to its first NUL, `nil` when empty.
    private func text(_ field: FITMessageDefinition.Field?, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let field else { return nil }
        let slice = bytes[field.offset..<(field.offset + field.size)]
        let text = String(decoding: slice.prefix { $0 != 0 }, as: UTF8.self)
        return text.isEmpty ? nil : text
    }
}
