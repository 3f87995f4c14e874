import Foundation
import Synchronization

/// The zones ``TimeZone/iana(_:)`` has resolved, by the text given: a
/// store's tasks name a few zones many times.
private let resolvedZones = Mutex<[String: TimeZone]>([:])

extension TimeZone {
    /// A zone of a fixed offset from UTC, as a task given a time such as
    /// `23:59+02:00` and no zone takes: IANA's `Etc/GMT-2` for whole hours
    /// (which the tasks file then names in words any IANA reader knows),
    /// else an unnamed fixed offset; `nil` past ±18 h.
    public static func fixed(secondsEast offset: Int) -> TimeZone? {
        if offset.isMultiple(of: 3600), let name = etcName(hoursEast: offset / 3600), let zone = TimeZone(identifier: name) {
            return zone
        }
        return TimeZone(secondsFromGMT: offset)
    }

    /// The zone's name as the tasks file and the store keep it: the IANA
    /// identifier, with `UTC` for the zone Foundation calls `GMT`, and
    /// `Etc/GMT-2` for the fixed offset +02:00 that Foundation calls
    /// `GMT+0200` (IANA's fixed zones count hours west). A fixed offset
    /// with minutes has no IANA name and keeps Foundation's.
    public var portableIdentifier: String {
        if identifier == "GMT" { return "UTC" }
        guard let offset = foundationFixedOffset, offset.isMultiple(of: 3600) else { return identifier }
        return Self.etcName(hoursEast: offset / 3600) ?? identifier
    }

    /// The zone's name as a person reads it, and `--time-zone` takes back:
    /// the IANA identifier, but `UTC`, and `UTC+02:00` for a fixed offset.
    public var displayName: String {
        let fixed = ["GMT", "UTC", "Etc/UTC"].contains(identifier) || identifier.hasPrefix("Etc/GMT")
        guard fixed || foundationFixedOffset != nil else { return identifier }
        let offset = secondsFromGMT()
        if offset == 0 { return "UTC" }
        let minutes = abs(offset) / 60
        return String(format: "UTC%@%02d:%02d", offset < 0 ? "-" : "+", minutes / 60, minutes % 60)
    }

    /// Whether the zone is a fixed offset Foundation made from one
    /// (`UTC+2` is `GMT+0200`).
    var isFixedOffset: Bool { foundationFixedOffset != nil }

    /// The offset of a zone Foundation made from an offset (`GMT+0530`).
    private var foundationFixedOffset: Int? {
        let name = Array(identifier.utf8)
        guard name.count == 8, identifier.hasPrefix("GMT"), name[3] == UInt8(ascii: "+") || name[3] == UInt8(ascii: "-"),
            name[4...].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return secondsFromGMT()
    }

    /// IANA's name of a whole-hour offset, whose sign is the other way
    /// round (`Etc/GMT-2` is two hours east), or `nil` where it has none.
    private static func etcName(hoursEast hours: Int) -> String? {
        guard (-12...14).contains(hours) else { return nil }
        if hours == 0 { return "UTC" }
        return "Etc/GMT" + (hours > 0 ? "-" : "+") + String(abs(hours))
    }
}

extension TimeZone {
    /// Parses an IANA time zone identifier such as `Europe/Berlin` or `UTC`,
    /// or a fixed offset (`UTC+02:00`, `+02:00`). An abbreviation that
    /// Foundation takes for a zone (`PST`, which follows PDT in summer)
    /// becomes that zone's IANA name (`America/Los_Angeles`), which other
    /// programs reading a tasks file know.
    ///
    /// - Throws: ``RecurrenceError/invalidTimeZone(_:)`` naming the text.
    public static func iana(_ identifier: String) throws -> TimeZone {
        if let zone = resolvedZones.withLock({ $0[identifier] }) { return zone }
        let zone = try resolve(identifier)
        resolvedZones.withLock { $0[identifier] = zone }
        return zone
    }

    /// ``iana(_:)`` without the memo.
    private static func resolve(_ identifier: String) throws -> TimeZone {
        let trimmed = identifier.trimmingWhitespace()
        if let offset = offsetSeconds(trimmed), let zone = fixed(secondsEast: offset) { return zone }
        guard !trimmed.isEmpty, let zone = TimeZone(identifier: trimmed) else {
            throw RecurrenceError.invalidTimeZone(identifier)
        }
        if zone.isFixedOffset || isNamedInTZData(trimmed) { return zone }
        if let name = abbreviationDictionary[trimmed.uppercased()], let named = TimeZone(identifier: name) { return named }
        return zone
    }

    /// The seconds east of UTC of `±HH:MM`, or `nil` for other text.
    private static func offsetSeconds(_ text: String) -> Int? {
        let characters = Array(text)
        guard characters.count == 6, characters[0] == "+" || characters[0] == "-", characters[3] == ":",
            let hours = Int(String(characters[1...2])), let minutes = Int(String(characters[4...5])), hours <= 23,
            minutes <= 59
        else { return nil }
        return (characters[0] == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// Whether `name` is a zone of the IANA database as this machine holds
    /// it: a file of tzdata (old links such as `US/Eastern` and `EST` are
    /// there too) or a name in ICU's list. Where no tzdata is installed,
    /// whatever Foundation takes is.
    private static func isNamedInTZData(_ name: String) -> Bool {
        let folder = "/usr/share/zoneinfo/"
        guard FileManager.default.fileExists(atPath: folder) else { return true }
        let isFile = !name.hasPrefix(".") && !name.contains("..") && FileManager.default.fileExists(atPath: folder + name)
        return isFile || knownTimeZoneIdentifiers.contains(name)
    }
}
