import Foundation
import Simulation
import Testing

@Suite struct ItineraryFileTests {
    @Test func theExampleReadsAsWritten() throws {
        let routine = try itinerary(berlinRoutine)
        #expect(routine.timeZone.identifier == "Europe/Berlin")
        #expect(routine.home.name == "Home")
        #expect(routine.places.map(\.name) == ["Home", "Work", "Pharmacy"])
        #expect(routine.speed == 13.9)
        #expect(
            routine.rules == [
                Itinerary.VisitRule(
                    place: "Work",
                    schedule: .weekdays(
                        [.monday, .tuesday, .wednesday, .thursday, .friday],
                        from: Itinerary.TimeOfDay(hour: 9, minute: 0), to: Itinerary.TimeOfDay(hour: 17, minute: 0))),
                Itinerary.VisitRule(place: "Pharmacy", schedule: .every(minDays: 10, maxDays: 20, stay: 600, at: nil)),
            ])
    }

    @Test func optionalFieldsHaveTheirDefaults() throws {
        let minimal = try itinerary(#"{"home": "Home", "places": [{"name": "Home", "lat": 0, "lon": 0}]}"#)
        #expect(minimal.timeZone == TimeZone(identifier: "UTC"))
        #expect(minimal.speed == 1.4, "walking")
        #expect(minimal.rules.isEmpty)
        let weeks = try itinerary(berlinRoutine.replacingOccurrences(of: "10d-20d", with: "2w-3w"))
        #expect(weeks.rules[1].schedule == .every(minDays: 14, maxDays: 21, stay: 600, at: nil))
    }

    /// Each mistake, the field it is reported at, and what the message says.
    @Test(
        arguments: [
            (
                "\"Pharmacy\", \"every\"", "\"Pharmcy\", \"every\"", "visits[1].place",
                "no place is called \"Pharmcy\"; did you mean \"Pharmacy\"?"
            ),
            (
                "\"fri\"]", "\"fry\"]", "visits[0].weekdays[4]",
                "\"fry\" is not a weekday: use mon, tue, wed, thu, fri, sat or sun; did you mean \"fri\"?"
            ),
            ("10d-20d", "20d-10d", "visits[1].every", "\"20d-10d\": the minimum is more than the maximum"),
            (
                "10d-20d", "0d-20d", "visits[1].every",
                "\"0d-20d\" is not an interval: write MIN-MAX in days or weeks, e.g. 10d-20d or 2w-3w"
            ),
            ("10d-20d", "1d-1000001d", "visits[1].every", "\"1d-1000001d\": at most 1000000d (2 737 years)"),
            (
                "10d-20d", "1317624576693539402w", "visits[1].every",
                "\"1317624576693539402w\": at most 1000000d (2 737 years)"
            ),
            ("\"weekdays\"", "\"wekdays\"", "visits[0]", "unknown key \"wekdays\"; did you mean \"weekdays\"?"),
            ("\"timeZone\"", "\"timezone\"", nil, "unknown key \"timezone\"; did you mean \"timeZone\"?"),
            ("\"lon\": 13.39", "\"long\": 13.39", "places[1]", "unknown key \"long\"; did you mean \"lon\"?"),
            ("\"to\": \"17:00\"", "\"to\": \"08:00\"", "visits[0].to", "08:00 is not later than \"from\" (09:00)"),
            (
                "\"from\": \"09:00\"", "\"from\": \"9am\"", "visits[0].from",
                "\"9am\" is not a time of day: use 24-hour HH:MM, e.g. 17:30"
            ),
            (
                "\"stay\": \"10m\"", "\"stay\": \"10 minutes\"", "visits[1].stay",
                "\"10 minutes\" is not a stay: write e.g. 45s, 10m or 2h"
            ),
            ("\"stay\": \"10m\"", "\"stay\": \"10m\", \"from\": \"09:00\"", "visits[1].from", "does not go with \"every\""),
            (
                "\"profile\": \"car\"", "\"profile\": \"cat\"", "profile",
                "\"cat\" is not a profile: use walk, bike, car; did you mean \"car\"?"
            ),
            (
                "\"profile\": \"car\"", "\"profile\": \"car\", \"speed\": 3", "speed",
                "give either \"profile\" or \"speed\", not both"
            ),
            (
                "\"Europe/Berlin\"", "\"Europe/Berlln\"", "timeZone",
                "\"Europe/Berlln\" is not an IANA time zone: use e.g. Europe/Berlin or UTC"
            ),
            ("\"home\": \"Home\"", "\"home\": \"Hom\"", "home", "no place is called \"Hom\"; did you mean \"Home\"?"),
            ("\"lat\": 52.52", "\"lat\": 152.52", "places[1].lat", "152.52 is not a latitude (−90…90)"),
            ("\"lat\": 52.52", "\"lat\": \"52.52\"", "places[1].lat", "must be a number"),
            ("\"name\": \"Work\"", "\"name\": \"Home\"", "places[1].name", "\"Home\" names two places"),
            (
                "\"place\": \"Work\"", "\"place\": \"Home\"", "visits[0].place",
                "\"Home\" is the home; the person is there unless visiting"
            ),
            (", \"stay\": \"10m\"", "", "visits[1].stay", "is missing"),
        ] as [(String, String, String?, String)])
    func mistakesAreNamedAtTheirField(original: String, mistake: String, field: String?, message: String) throws {
        #expect(berlinRoutine.contains(original), "the fixture has \(original)")
        let error = try #require(refusal(berlinRoutine.replacingOccurrences(of: original, with: mistake)))
        #expect(error == ItineraryError(field: field, message: message))
    }

    @Test func aVisitOfNeitherShapeSaysWhatItNeeds() throws {
        let error = try #require(refusal(berlinRoutine.replacingOccurrences(of: "\"every\": \"10d-20d\", ", with: "")))
        #expect(error.description == "visits[1]: needs \"weekdays\" (with \"from\" and \"to\") or \"every\" (with \"stay\")")
    }

    @Test func textThatIsNotJSONIsRefusedAsAWhole() throws {
        let error = try #require(refusal("{\"home\": "))
        #expect(error.field == nil)
        #expect(error.message.hasPrefix("not valid JSON"))
    }
}
