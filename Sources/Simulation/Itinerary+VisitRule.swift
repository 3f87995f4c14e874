extension Itinerary {
    /// When a place is visited.
    public struct VisitRule: Hashable, Sendable {
        /// The place's name.
        public var place: String
        /// The schedule of the visits.
        public var schedule: Schedule

        /// Visits to `place` on `schedule`.
        public init(place: String, schedule: Schedule) {
            self.place = place
            self.schedule = schedule
        }
    }

    /// How often, and at what time of day, a place is visited.
    public enum Schedule: Hashable, Sendable {
        /// On the given weekdays, arriving at `from` and leaving at `to`
        /// (local times; `to` is later than `from` on the same day).
        case weekdays(Set<Weekday>, from: TimeOfDay, to: TimeOfDay)
        /// Once per interval of `minDays…maxDays` whole days, each interval
        /// drawn uniformly (seeded), staying `stay` seconds; arriving `at`
        /// the given local time, or by default straight after the day's
        /// last weekday visit, else at ``Itinerary/middayArrival``.
        case every(minDays: Int, maxDays: Int, stay: Double, at: TimeOfDay?)
    }

    /// When "every" visits arrive on a day without weekday visits, unless
    /// they name a time: 12:00.
    public static let middayArrival = TimeOfDay(hour: 12, minute: 0)

    /// A day of the week, Monday first (ISO 8601).
    public enum Weekday: Int, Hashable, Sendable, CaseIterable {
        case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

        /// The itinerary file's name for it: `mon` … `sun`.
        public var shortName: String { ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][rawValue - 1] }

        /// The weekday of a day counted from 1970-01-01 (a Thursday).
        init(daysSince1970 days: Int) {
            self.init(rawValue: ((days + 3) % 7 + 7) % 7 + 1)!
        }
    }

    /// A local time of day, `09:00`.
    public struct TimeOfDay: Hashable, Sendable, CustomStringConvertible {
        /// Seconds after local midnight.
        public let secondsOfDay: Int

        /// `hour`:`minute`; both must be in range (0…23, 0…59).
        public init(hour: Int, minute: Int) {
            precondition((0...23).contains(hour) && (0...59).contains(minute), "time of day out of range")
            secondsOfDay = hour * 3600 + minute * 60
        }

        /// `09:00`.
        public var description: String {
            let hour = secondsOfDay / 3600
            let minute = secondsOfDay / 60 % 60
            return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
        }
    }
}
