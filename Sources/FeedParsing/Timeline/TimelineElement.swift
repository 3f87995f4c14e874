import GeoCore

/// One element of a Timeline export's array as the framer hands it on: its
/// bytes, its name in messages (`semanticSegments[3]`, iOS's `[3]`) and
/// where it opens, so that a part of it can be located to its own line.
struct TimelineElement {
    let bytes: UnsafeBufferPointer<UInt8>
    let name: String
    let location: FeedLocation

    /// Where `part`, bytes of this element, begins in the input.
    func location(of part: UnsafeBufferPointer<UInt8>) -> FeedLocation {
        guard let base = bytes.baseAddress, let start = part.baseAddress, start >= base,
            start - base <= bytes.count
        else { return location }
        let offset = start - base
        let lines = bytes.prefix(offset).count { $0 == 0x0A }
        return FeedLocation(line: location.line + lines, byteOffset: location.byteOffset + offset)
    }
}

/// The members of a semantic segment that give positions: a visit's place,
/// an activity's two ends and a path's points, with the segment's start
/// and end times. A memory (`timelineMemory`, a trip's summary) gives none.
struct TimelineSegmentMembers: JSONMemberSink {
    var startTime: JSONScalar?
    var endTime: JSONScalar?
    var visit: UnsafeBufferPointer<UInt8>?
    var activity: UnsafeBufferPointer<UInt8>?
    var timelinePath: UnsafeBufferPointer<UInt8>?
    var isMemory = false

    mutating func set(key: UnsafeBufferPointer<UInt8>, value: JSONScalar) {
        if key.elementsEqual("startTime".utf8) {
            startTime = value
        } else if key.elementsEqual("endTime".utf8) {
            endTime = value
        }
    }

    mutating func set(key: UnsafeBufferPointer<UInt8>, nested: UnsafeBufferPointer<UInt8>) {
        if key.elementsEqual("visit".utf8) {
            visit = nested
        } else if key.elementsEqual("activity".utf8) {
            activity = nested
        } else if key.elementsEqual("timelinePath".utf8) {
            timelinePath = nested
        } else if key.elementsEqual("timelineMemory".utf8) {
            isMemory = true
        }
    }
}

/// The members of a raw signal: its `position`, or the kind of signal it is
/// instead (`wifiScan`, `activityRecord`), which gives no position.
struct TimelineSignalMembers: JSONMemberSink {
    var position: UnsafeBufferPointer<UInt8>?
    var kind: String?

    mutating func set(key: UnsafeBufferPointer<UInt8>, value: JSONScalar) {
        if kind == nil { kind = String(decoding: key, as: UTF8.self) }
    }

    mutating func set(key: UnsafeBufferPointer<UInt8>, nested: UnsafeBufferPointer<UInt8>) {
        if key.elementsEqual("position".utf8) {
            position = nested
        } else if kind == nil {
            kind = String(decoding: key, as: UTF8.self)
        }
    }
}

/// The members of a raw signal's `position`: a fix as the phone reported it.
struct TimelinePositionMembers: JSONMemberSink {
    var latLng: JSONScalar?
    var timestamp: JSONScalar?
    var accuracy: Double?
    var altitude: Double?
    var speed: Double?

    mutating func set(key: UnsafeBufferPointer<UInt8>, value: JSONScalar) {
        if key.elementsEqual("LatLng".utf8) {
            latLng = value
        } else if key.elementsEqual("timestamp".utf8) {
            timestamp = value
        } else if key.elementsEqual("accuracyMeters".utf8) {
            accuracy = value.number
        } else if key.elementsEqual("altitudeMeters".utf8) {
            altitude = value.number
        } else if key.elementsEqual("speedMetersPerSecond".utf8) {
            speed = value.number
        }
    }
}
