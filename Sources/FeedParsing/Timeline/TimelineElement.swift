import GeoCore

/// One element of a Timeline export's array as the framer hands it on: its
/// bytes, its array and index, and where it opens, so that a part of it
/// can be located to its own line. Names and lines are worked out only for
/// a message.
struct TimelineElement {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Its array's name, empty for iOS's top-level array.
    let array: String
    let index: Int
    let location: FeedLocation

    /// Its name in a message: `semanticSegments[3]`, or iOS's `[3]`.
    var name: String { Self.name(array: array, index: index) }

    /// The name in a message of element `index` of `array`.
    static func name(array: String, index: Int) -> String { "\(array)[\(index)]" }

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
        if key.spells("startTime") {
            startTime = value
        } else if key.spells("endTime") {
            endTime = value
        }
    }

    mutating func set(key: UnsafeBufferPointer<UInt8>, nested: UnsafeBufferPointer<UInt8>) {
        if key.spells("visit") {
            visit = nested
        } else if key.spells("activity") {
            activity = nested
        } else if key.spells("timelinePath") {
            timelinePath = nested
        } else if key.spells("timelineMemory") {
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
        if key.spells("position") {
            position = nested
        } else if kind == nil {
            kind = String(decoding: key, as: UTF8.self)
        }
    }
}

/// The members of a path's point: its position, and its `time` (Android) or
/// its minutes after the segment's start (iOS).
struct TimelinePathPointMembers: JSONMemberSink {
    var point: JSONScalar?
    var time: JSONScalar?
    var minutes: JSONScalar?

    mutating func set(key: UnsafeBufferPointer<UInt8>, value: JSONScalar) {
        if key.spells("point") {
            point = value
        } else if key.spells("time") {
            time = value
        } else if key.spells("durationMinutesOffsetFromStartTime") {
            minutes = value
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
        if key.spells("LatLng") {
            latLng = value
        } else if key.spells("timestamp") {
            timestamp = value
        } else if key.spells("accuracyMeters") {
            accuracy = value.number
        } else if key.spells("altitudeMeters") {
            altitude = value.number
        } else if key.spells("speedMetersPerSecond") {
            speed = value.number
        }
    }
}
