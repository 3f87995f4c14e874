import GeoCore

/// What a typed name finds among named places.
public enum PlaceMatch: Equatable, Sendable {
    /// The one place meant.
    case found(NamedPlace)
    /// Several places fit the name; none is chosen.
    case ambiguous([NamedPlace])
    /// No place fits; the nearest names by spelling, best first (may be empty).
    case unknown(suggestions: [String])
}

extension NamedPlace {
    /// The place `name` means among `places`, compared by ``key``: the
    /// place of that name, else the one place whose name starts with it,
    /// else the one place with a word that starts with it (`süd` finds
    /// `Apotheke Süd`). More than one is ambiguous; none suggests the three
    /// names nearest in spelling.
    public static func lookUp(_ name: String, in places: [NamedPlace]) -> PlaceMatch {
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
        let ranked = keyed.sorted { Spelling.distance($0.1, wanted) < Spelling.distance($1.1, wanted) }
        return .unknown(suggestions: ranked.prefix(3).map(\.0.name))
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
        case .unknown(let suggestions) where suggestions.isEmpty:
            return "no place named \(typed): the place book is empty (place import FILE adds places)"
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
