import GeoCore

/// What a typed name finds among named places.
public enum PlaceMatch: Equatable, Sendable {
    /// The one place meant.
    case found(NamedPlace)
    /// Several places fit the name; none is chosen.
    case ambiguous([NamedPlace])
    /// No place fits; the names a typo away, nearest first (may be empty).
    case unknown(suggestions: [String])
    /// The place book holds no place at all.
    case emptyBook
}

extension NamedPlace {
    /// The place `name` means among `places`, compared by ``key``: the
    /// place of that name, else the one place whose name starts with it,
    /// else the one place with a word that starts with it (`süd` finds
    /// `Apotheke Süd`). More than one is ambiguous; none suggests the
    /// three names nearest in spelling, of those a typo away (an edit for
    /// every three letters, two at least).
    public static func lookUp(_ name: String, in places: [NamedPlace]) -> PlaceMatch {
        guard !places.isEmpty else { return .emptyBook }
        let wanted = key(name)
        guard !wanted.isEmpty else { return .unknown(suggestions: []) }
        let keyed = places.map { ($0, $0.key) }
        let exact = keyed.filter { $0.1 == wanted }
        if exact.count == 1 { return .found(exact[0].0) }
        if exact.count > 1 { return .ambiguous(exact.map(\.0)) }
        let prefixed = keyed.filter { $0.1.hasPrefix(wanted) }
        if prefixed.count == 1 { return .found(prefixed[0].0) }
        if prefixed.count > 1 { return .ambiguous(prefixed.map(\.0)) }
        let worded = keyed.filter { $0.1.split(separator: " ").contains { $0.hasPrefix(wanted) } }
        if worded.count == 1 { return .found(worded[0].0) }
        if worded.count > 1 { return .ambiguous(worded.map(\.0)) }
        let typoAway = max(2, wanted.count / 3)
        let ranked = keyed.map { (place: $0.0, distance: Spelling.distance($0.1, wanted)) }.filter { $0.distance <= typoAway }
            .sorted { $0.distance < $1.distance }
        return .unknown(suggestions: ranked.prefix(3).map(\.place.name))
    }
}

/// A name that finds no place, or several: a message that lists what it could mean.
public struct PlaceLookupError: Error, CustomStringConvertible, Equatable {
    /// The name typed.
    public var name: String
    /// What it found.
    public var match: PlaceMatch

    /// The error for `name` that found `match` (not ``PlaceMatch/found(_:)``).
    public init(name: String, match: PlaceMatch) {
        self.name = name
        self.match = match
    }

    public var description: String {
        let typed = "'\(name.terminalSafe)'"
        switch match {
        case .found(let place): return "\(typed) is \(place.name.terminalSafe)"
        case .ambiguous(let places):
            let listed = places.map { "\($0.name.terminalSafe) (\(Self.position($0)))" }.joined(separator: ", ")
            return "\(typed) could be \(listed): give more of the name"
        case .emptyBook: return "no place named \(typed): the place book is empty (place import FILE adds places)"
        case .unknown(let suggestions) where suggestions.isEmpty:
            return "no place named \(typed) (place list shows them all)"
        case .unknown(let suggestions):
            return "no place named \(typed); did you mean \(suggestions.map(\.terminalSafe).joined(separator: ", "))? "
                + "(place list shows them all)"
        }
    }

    private static func position(_ place: NamedPlace) -> String {
        func rounded(_ value: Double) -> Double { (value * 1e5).rounded() / 1e5 }
        return "\(rounded(place.centre.latitude)),\(rounded(place.centre.longitude))"
    }
}
