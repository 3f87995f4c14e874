extension Itinerary.VisitRule {
    /// A rule of either shape; the keys of the other shape are refused.
    init(_ object: JSONFields) throws(ItineraryError) {
        let place = try object.requiredString("place")
        if object.has("weekdays") {
            try Self.refuse(["every", "stay", "at"], in: object, besides: "weekdays")
            var weekdays = Set<Itinerary.Weekday>()
            for (index, element) in try object.requiredArray("weekdays").enumerated() {
                let field = object.field("weekdays") + "[\(index)]"
                guard let text = element as? String else { throw ItineraryError(field: field, message: "must be a string") }
                weekdays.insert(try Itinerary.Weekday(parsing: text, field: field))
            }
            guard !weekdays.isEmpty else { throw ItineraryError(field: object.field("weekdays"), message: "names no day") }
            let from = try Itinerary.TimeOfDay(parsing: object.requiredString("from"), field: object.field("from"))
            let to = try Itinerary.TimeOfDay(parsing: object.requiredString("to"), field: object.field("to"))
            guard to.secondsOfDay > from.secondsOfDay else {
                throw ItineraryError(field: object.field("to"), message: "\(to) is not later than \"from\" (\(from))")
            }
            self.init(place: place, schedule: .weekdays(weekdays, from: from, to: to))
        } else if object.has("every") {
            try Self.refuse(["from", "to"], in: object, besides: "every")
            let (minDays, maxDays) = try Self.interval(object.requiredString("every"), field: object.field("every"))
            let stay = try Self.stay(object.requiredString("stay"), field: object.field("stay"))
            let at = try object.string("at").map { text throws(ItineraryError) in
                try Itinerary.TimeOfDay(parsing: text, field: object.field("at"))
            }
            self.init(place: place, schedule: .every(minDays: minDays, maxDays: maxDays, stay: stay, at: at))
        } else {
            throw ItineraryError(
                field: object.path,
                message: "needs \"weekdays\" (with \"from\" and \"to\") or \"every\" (with \"stay\")")
        }
    }

    private static func refuse(_ keys: [String], in object: JSONFields, besides shape: String) throws(ItineraryError) {
        if let key = keys.first(where: object.has) {
            throw ItineraryError(field: object.field(key), message: "does not go with \"\(shape)\"")
        }
    }

    /// The longest interval an "every" rule may give: 1 000 000 days (2 737
    /// years), more than any simulation spans, so that adding one to a day
    /// cannot overflow.
    static let longestInterval = 1_000_000

    /// `10d-20d`, `2w-3w` or `14d`: whole days, at least 1 and at most
    /// ``longestInterval``, minimum ≤ maximum.
    private static func interval(_ text: String, field: String) throws(ItineraryError) -> (Int, Int) {
        let bounds = text.split(separator: "-", omittingEmptySubsequences: false).map { days(in: $0) }
        guard (1...2).contains(bounds.count), let low = bounds.first!, let high = bounds.last!, low >= 1 else {
            throw ItineraryError(
                field: field, message: "\"\(text)\" is not an interval: write MIN-MAX in days or weeks, e.g. 10d-20d or 2w-3w")
        }
        guard low <= high else {
            throw ItineraryError(field: field, message: "\"\(text)\": the minimum is more than the maximum")
        }
        guard high <= longestInterval else {
            throw ItineraryError(field: field, message: "\"\(text)\": at most \(longestInterval)d (2 737 years)")
        }
        return (low, high)
    }

    /// `12d` or `2w` in days; a count of weeks whose days overflow gives
    /// `Int.max`, which is over any bound.
    private static func days(in text: Substring) -> Int? {
        guard let unit = text.last, let count = Int(text.dropLast()), count >= 0 else { return nil }
        switch unit {
        case "d": return count
        case "w": return count > Int.max / 7 ? Int.max : count * 7
        default: return nil
        }
    }

    /// `45s`, `10m` or `2h`, in seconds.
    private static func stay(_ text: String, field: String) throws(ItineraryError) -> Double {
        let seconds: [Character: Int] = ["s": 1, "m": 60, "h": 3600]
        guard let unit = text.last.flatMap({ seconds[$0] }), let count = Int(text.dropLast()), count > 0,
            case let (total, overflow) = count.multipliedReportingOverflow(by: unit), !overflow
        else {
            throw ItineraryError(field: field, message: "\"\(text)\" is not a stay: write e.g. 45s, 10m or 2h")
        }
        return Double(total)
    }
}

extension Itinerary.Weekday {
    /// `mon` or `monday`, in any case.
    init(parsing text: String, field: String) throws(ItineraryError) {
        let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        let key = text.lowercased()
        guard let index = names.firstIndex(where: { $0 == key || $0.prefix(3) == key }) else {
            throw ItineraryError(
                field: field,
                message: "\"\(text)\" is not a weekday: use mon, tue, wed, thu, fri, sat or sun"
                    + ItineraryError.suggestion(for: text, among: Self.allCases.map(\.shortName)))
        }
        self.init(rawValue: index + 1)!
    }
}

extension Itinerary.TimeOfDay {
    /// `09:00` or `9:00`.
    init(parsing text: String, field: String) throws(ItineraryError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { throw ItineraryError(field: field, message: "\"\(text)\" is not a time of day: use 24-hour HH:MM, e.g. 17:30") }
        self.init(hour: hour, minute: minute)
    }
}
