import Foundation
import GeoCore
import Geofencing

/// A place with a name a person types: a pharmacy, home, work. Its circle
/// becomes a task's place (`task add --at-place NAME`) and names the fixes
/// near it (`--places`).
public struct NamedPlace: Hashable, Sendable {
    /// The name as the file wrote it.
    public var name: String
    /// The centre of the place's circle.
    public var centre: Coordinate
    /// The radius in metres; positive.
    public var radius: Double

    /// A place named `name`.
    public init(name: String, centre: Coordinate, radius: Double) {
        self.name = name
        self.centre = centre
        self.radius = radius
    }

    /// The name as names are compared: without case, accents and
    /// surrounding blanks (`Apotheke Süd` is `apotheke sud`).
    public var key: String { Self.key(name) }

    /// The comparison form of any name (see ``key``).
    public static func key(_ name: String) -> String {
        name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The place's circle as a region named after it.
    public var region: Region { Region(id: name, shape: .circle(centre: centre, radius: radius)) }
}
