import Foundation
import GRDB
import GeoCore
import Pipeline

/// The place book: named places imported from files (`place import`),
/// which tasks take by name (`task add --at-place NAME`).
///
/// Names are unique as compared (``NamedPlace/key``: without case or
/// accents), so `Apotheke Süd` and `apotheke sud` are one place.
extension TaskDatabase {
    /// What an import did.
    public struct PlaceImport: Equatable, Sendable {
        /// Places new to the book.
        public var added = 0
        /// Places whose name was in the book, now moved to the file's position and radius.
        public var updated = 0

        /// An outcome of `added` new and `updated` changed places.
        public init(added: Int = 0, updated: Int = 0) {
            self.added = added
            self.updated = updated
        }
    }

    /// Adds `places` to the book in one transaction; a place whose name
    /// (as compared) is there already takes the new position, radius and
    /// spelling. `source` records the file.
    public func importPlaces(_ places: [NamedPlace], source: String, now: Date = Date()) throws -> PlaceImport {
        try write { db in
            var outcome = PlaceImport()
            for place in places {
                let existed =
                    try Bool.fetchOne(db, sql: "SELECT 1 FROM place WHERE name_key = ?", arguments: [place.key]) ?? false
                try db.execute(sql: "DELETE FROM place WHERE name_key = ?", arguments: [place.key])
                try db.execute(
                    sql: """
                        INSERT INTO place (name, name_key, latitude, longitude, radius, source, imported_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        place.name, place.key, place.centre.latitude, place.centre.longitude, place.radius, source,
                        now.timeIntervalSince1970,
                    ])
                if existed { outcome.updated += 1 } else { outcome.added += 1 }
            }
            return outcome
        }
    }

    /// Every place in the book, by name as compared.
    public func places() throws -> [NamedPlace] {
        try read { db in
            // A store made before the place book, opened read-only, has none.
            guard try db.tableExists("place") else { return [] }
            return try Row.fetchAll(db, sql: "SELECT name, latitude, longitude, radius FROM place ORDER BY name_key").map {
                NamedPlace(
                    name: $0["name"], centre: Coordinate(latitude: $0["latitude"], longitude: $0["longitude"]),
                    radius: $0["radius"])
            }
        }
    }

    /// Removes the place named exactly `name` (as compared); `false` when there is none.
    @discardableResult
    public func removePlace(named name: String) throws -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM place WHERE name_key = ?", arguments: [NamedPlace.key(name)])
            return db.changesCount > 0
        }
    }
}
