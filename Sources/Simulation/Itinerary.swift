import Foundation
import GeoCore

/// A person's routine: a home, the places they go to, and the rules that
/// say when — simulated for months in seconds (``simulate(days:start:seed:)``).
///
/// The person is at home unless visiting, and travels between places along
/// great-circle legs at ``speed``. Times of day are local times in
/// ``timeZone``, resolved as the project resolves them everywhere: 09:00
/// stays 09:00 across a DST change, a local time that does not exist moves
/// forward by the gap (Berlin 2025-03-30 02:30 → 03:30 CEST), and one that
/// happens twice takes the first.
///
/// Itineraries usually come from JSON (``init(json:)``); the format is
/// described there.
public struct Itinerary: Sendable {
    /// A named place.
    public struct Place: Hashable, Sendable {
        /// The name visit rules refer to it by.
        public var name: String
        /// Where it is.
        public var coordinate: Coordinate

        /// A place called `name` at `coordinate`.
        public init(name: String, coordinate: Coordinate) {
            self.name = name
            self.coordinate = coordinate
        }
    }

    /// The zone local times are read in.
    public let timeZone: TimeZone
    /// Every place, the home among them.
    public let places: [Place]
    /// Where the person is unless visiting (an index into ``places``).
    public let homeIndex: Int
    /// The rules, in the order that breaks ties between visits meant for
    /// the same moment.
    public let rules: [VisitRule]
    /// Travel speed in metres per second.
    public let speed: Double

    /// The home.
    public var home: Place { places[homeIndex] }

    /// An itinerary, checked: place names are unique, `home` and every
    /// rule's place name a place, no rule visits the home, and the speed is
    /// positive.
    /// - Throws: ``ItineraryError`` naming the field, with the nearest valid
    ///   name for a misspelt place.
    public init(
        timeZone: TimeZone, places: [Place], home: String, rules: [VisitRule], speed: Double
    ) throws(ItineraryError) {
        var seen = Set<String>()
        for (index, place) in places.enumerated() where !seen.insert(place.name).inserted {
            throw ItineraryError(field: "places[\(index)].name", message: "\"\(place.name)\" names two places")
        }
        guard let homeIndex = places.firstIndex(where: { $0.name == home }) else {
            throw .unknownPlace(home, field: "home", places: places.map(\.name))
        }
        for (index, rule) in rules.enumerated() {
            let field = "visits[\(index)].place"
            guard seen.contains(rule.place) else { throw .unknownPlace(rule.place, field: field, places: places.map(\.name)) }
            guard rule.place != home else {
                throw ItineraryError(field: field, message: "\"\(home)\" is the home; the person is there unless visiting")
            }
        }
        guard speed > 0, speed.isFinite else {
            throw ItineraryError(field: "speed", message: "must be a positive number of metres per second")
        }
        self.timeZone = timeZone
        self.places = places
        self.homeIndex = homeIndex
        self.rules = rules
        self.speed = speed
    }
}

extension Itinerary {
    /// A visit that was made: where, and from when to when.
    public struct Visit: Hashable, Sendable {
        /// The place's name.
        public var place: String
        /// When the person got there.
        public var arrival: Timestamp
        /// When they left.
        public var departure: Timestamp

        /// A visit to `place` from `arrival` to `departure`.
        public init(place: String, arrival: Timestamp, departure: Timestamp) {
            self.place = place
            self.arrival = arrival
            self.departure = departure
        }
    }

    /// A date on the calendar, without a time or a zone: the day a
    /// simulation starts, at local midnight.
    public struct CivilDate: Hashable, Sendable, CustomStringConvertible {
        /// Days since 1970-01-01.
        public let daysSince1970: Int

        /// The date `year`-`month`-`day` (proleptic Gregorian); the values
        /// must name a real date.
        public init(year: Int, month: Int, day: Int) {
            precondition((1...12).contains(month), "month out of range")
            precondition((1...CivilCalendar.daysInMonth(year: year, month: month)).contains(day), "day out of range")
            daysSince1970 = CivilCalendar.days(year: year, month: month, day: day)
        }

        /// The local date of `instant` in `zone` (what `--start TIME` names).
        public init(of instant: Timestamp, in zone: TimeZone) {
            daysSince1970 = LocalClock(zone: zone).day(of: instant)
        }

        /// The day of the week.
        public var weekday: Weekday { Weekday(daysSince1970: daysSince1970) }

        /// `2025-03-30`.
        public var description: String {
            let date = CivilCalendar.date(fromDays: daysSince1970)
            func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            return "\(date.year)-\(pad(date.month))-\(pad(date.day))"
        }
    }
}
