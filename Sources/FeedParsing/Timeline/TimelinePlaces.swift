import GeoCore

/// The places Google's on-device Timeline export names: the user's Home
/// and Work, the only places it gives a name to (its other visits name a
/// place by Google's identifier alone).
///
/// A place is taken from `userLocationProfile.frequentPlaces`, where the
/// user labelled it (`"label": "HOME"`), else from the visits Google typed
/// as it (`topCandidate.semanticType` `HOME` or `INFERRED_HOME`; iOS writes
/// `Home`, `Inferred Home`): the place (by its `placeId`) visited most
/// often, the latest of those visited as often. Android's object and iOS's
/// array are both read from bytes already in memory, without building a
/// document, so a large export costs little more than its bytes.
public struct TimelinePlaces: Sendable {
    /// One named place.
    public struct Place: Hashable, Sendable {
        /// `Home` or `Work`.
        public let name: String
        /// Where.
        public let coordinate: Coordinate
        /// Where in the file it was found, for a message:
        /// `userLocationProfile.frequentPlaces[0]`, `semanticSegments[12]`.
        public let origin: String
    }

    /// The names given to the labels, in the order they are listed.
    public static let names = [("HOME", "Home"), ("WORK", "Work")]

    /// Home, then Work, as far as the export names them.
    public private(set) var places: [Place] = []

    /// Reads `bytes` when they are a Timeline export (as ``FeedSniffer``
    /// tells it); `nil` for any other file.
    public init?(_ bytes: [UInt8]) {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        guard FeedSniffer.opensTimeline(bytes[start...]) == true else { return nil }
        bytes.withUnsafeBufferPointer { all in
            let document = UnsafeBufferPointer(rebasing: all[start...])
            var labelled: [String: Place] = [:]
            var visits = VisitTally()
            if document.first == 0x5B {
                visits.count(segments: document, named: "")
            } else {
                if let segments = JSONMember.named("semanticSegments", in: document)?.nested {
                    visits.count(segments: segments, named: "semanticSegments")
                }
                if let profile = JSONMember.at("userLocationProfile", "frequentPlaces", in: document)?.nested {
                    labelled = Self.frequentPlaces(profile)
                }
            }
            places = Self.names.compactMap { label, _ in labelled[label] ?? visits.mostVisited(label) }
        }
    }

    /// The first of the frequent places with each label.
    private static func frequentPlaces(_ array: UnsafeBufferPointer<UInt8>) -> [String: Place] {
        var found: [String: Place] = [:]
        var index = 0
        var scanner = JSONObjectScanner(bytes: array, position: 0)
        _ = scanner.scanArray { element in
            defer { index += 1 }
            guard let label = JSONMember.named("label", in: element)?.scalar.flatMap(\.string).map(Self.label),
                let name = Self.names.first(where: { $0.0 == label })?.1, found[label] == nil,
                let location = JSONMember.named("placeLocation", in: element).flatMap(TimelinePoint.init(place:))
            else { return true }
            found[label] = Place(
                name: name, coordinate: location.coordinate, origin: "userLocationProfile.frequentPlaces[\(index)]")
            return true
        }
        return found
    }

    /// A label or semantic type as Android writes it: `Inferred Home` is `INFERRED_HOME`.
    static func label(_ text: String) -> String {
        String(text.uppercased().map { $0 == " " ? "_" : $0 })
    }

    /// The visits to places Google typed as Home or Work, by place.
    private struct VisitTally {
        private struct Visited {
            var count = 0
            /// The latest visit's start.
            var latest: Timestamp?
            /// The place as first visited.
            let place: Place
            /// Where it was first visited among the segments.
            let first: Int
        }

        private var byLabel: [String: [String: Visited]] = [:]

        mutating func count(segments: UnsafeBufferPointer<UInt8>, named array: String) {
            var index = 0
            var scanner = JSONObjectScanner(bytes: segments, position: 0)
            _ = scanner.scanArray { segment in
                defer { index += 1 }
                guard let visit = JSONMember.named("visit", in: segment)?.nested,
                    let candidate = JSONMember.named("topCandidate", in: visit)?.nested,
                    let type = JSONMember.named("semanticType", in: candidate)?.scalar?.string
                else { return true }
                var label = TimelinePlaces.label(type)
                if label.hasPrefix("INFERRED_") { label.removeFirst("INFERRED_".count) }
                guard let name = TimelinePlaces.names.first(where: { $0.0 == label })?.1,
                    let position = JSONMember.named("placeLocation", in: candidate).flatMap(TimelinePoint.init(place:))
                else { return true }
                let id =
                    (JSONMember.named("placeId", in: candidate) ?? JSONMember.named("placeID", in: candidate))?.scalar?.text
                    ?? "\(position.coordinate.latitude),\(position.coordinate.longitude)"
                let start = JSONMember.named("startTime", in: segment)?.scalar?.rfc3339
                let place = Place(name: name, coordinate: position.coordinate, origin: "\(array)[\(index)]")
                var visited = byLabel[label, default: [:]][id] ?? Visited(place: place, first: index)
                visited.count += 1
                if let start, visited.latest.map({ start > $0 }) ?? true { visited.latest = start }
                byLabel[label, default: [:]][id] = visited
                return true
            }
        }

        /// The place with `label` visited most often, the latest of those
        /// visited as often (the first in the file of those visited as late).
        func mostVisited(_ label: String) -> Place? {
            byLabel[label]?.values.max { a, b in
                (a.count, a.latest?.nanoseconds ?? .min, -a.first) < (b.count, b.latest?.nanoseconds ?? .min, -b.first)
            }?.place
        }
    }
}
