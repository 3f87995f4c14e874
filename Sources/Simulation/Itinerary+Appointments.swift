import GeoCore

/// A visit the rules ask for: where, when the person means to arrive, and
/// when they mean to leave.
struct Appointment {
    /// How a visit's end is fixed.
    enum End {
        /// At a local time (weekday visits keep their end).
        case at(Timestamp)
        /// After a stay in seconds ("every" visits keep their length).
        case after(Double)
    }

    /// An index into the itinerary's places.
    var place: Int
    /// When the person means to arrive.
    var arrival: Timestamp
    var end: End
    /// The rule's index, which breaks ties between equal arrivals.
    var rule: Int
}

extension Itinerary {
    /// Every appointment of `days` days from `start`, in order of intended
    /// arrival (ties in rule order).
    ///
    /// Each "every" rule draws from its own generator, seeded from `seed`
    /// in rule order: its first visit falls on a day uniform in
    /// 0..<maxDays (as if the last one was just before the start), and each
    /// next one a whole number of days uniform in minDays…maxDays later.
    func appointments(days: Int, start: CivilDate, seed: UInt64) -> [Appointment] {
        let clock = LocalClock(zone: timeZone)
        let placeIndex = Dictionary(uniqueKeysWithValues: places.enumerated().map { ($1.name, $0) })
        var weekly: [Appointment] = []
        var latestWeeklyEnd: [Int: Timestamp] = [:]
        for day in start.daysSince1970..<start.daysSince1970 + days {
            let weekday = Weekday(daysSince1970: day)
            for (index, rule) in rules.enumerated() {
                guard case .weekdays(let weekdays, let from, let to) = rule.schedule, weekdays.contains(weekday) else { continue }
                let end = clock.instant(day: day, secondsOfDay: to.secondsOfDay)
                let arrival = clock.instant(day: day, secondsOfDay: from.secondsOfDay)
                weekly.append(Appointment(place: placeIndex[rule.place]!, arrival: arrival, end: .at(end), rule: index))
                latestWeeklyEnd[day] = max(latestWeeklyEnd[day] ?? end, end)
            }
        }
        var every: [Appointment] = []
        var seeds = SplitMix64(seed: seed)
        for (index, rule) in rules.enumerated() {
            guard case .every(let minDays, let maxDays, let stay, let at) = rule.schedule else { continue }
            var random = SplitMix64(seed: seeds.next())
            var day = start.daysSince1970 + random.integer(in: 0...maxDays - 1)
            while day < start.daysSince1970 + days {
                let arrival =
                    at.map { clock.instant(day: day, secondsOfDay: $0.secondsOfDay) } ?? latestWeeklyEnd[day]
                    ?? clock.instant(day: day, secondsOfDay: Itinerary.middayArrival.secondsOfDay)
                every.append(Appointment(place: placeIndex[rule.place]!, arrival: arrival, end: .after(stay), rule: index))
                day += random.integer(in: minDays...maxDays)
            }
        }
        return (weekly + every).sorted { ($0.arrival, $0.rule) < ($1.arrival, $1.rule) }
    }
}

extension SplitMix64 {
    /// A whole number in `range`, uniform up to a bias of range.count / 2⁶⁴.
    fileprivate mutating func integer(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}
