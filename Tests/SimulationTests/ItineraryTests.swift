import Foundation
import GeoCore
import Simulation
import TestSupport
import Testing

@Suite struct ItineraryTests {
    /// Monday 2025-03-24; Berlin springs forward on Sunday the 30th.
    let monday = Itinerary.CivilDate(year: 2025, month: 3, day: 24)

    @Test("a weekday visit out of reach before its end is skipped, and named; a reachable routine skips none")
    func skippedVisitsAreNamed() throws {
        // Work in Madrid, 1 870 km from a Berlin home: 37 h by car, Monday to Wednesday 09:00–17:00.
        let far = try itinerary(
            """
            {"timeZone": "Europe/Berlin", "home": "Home", "profile": "car",
             "places": [{"name": "Home", "lat": 52.5096, "lon": 13.4250}, {"name": "Work", "lat": 40.4168, "lon": -3.7038}],
             "visits": [{"place": "Work", "weekdays": ["mon", "tue", "wed"], "from": "09:00", "to": "17:00"}]}
            """)
        let start = Itinerary.CivilDate(year: 2025, month: 1, day: 6)
        let skipped = try far.skippedVisits(days: 3, start: start, seed: 1)
        // Leaving at the first midnight, the person reaches Madrid on Tuesday afternoon: Monday is lost.
        #expect(skipped.map(\.place) == ["Work"])
        #expect(skipped.first?.arrival == RFC3339.parse("2025-01-06T08:00:00Z"))
        #expect(skipped.first?.departure == RFC3339.parse("2025-01-06T16:00:00Z"))
        let made = try far.visits(days: 3, start: start, seed: 1)
        // Tuesday's reached late, Wednesday's from where the person stayed.
        #expect(made.count == 2, "\(made)")
        #expect(made.first.map { $0.arrival > RFC3339.parse("2025-01-07T08:00:00Z")! } == true, "\(made)")
        #expect(try itinerary(berlinRoutine).skippedVisits(days: 60, start: monday, seed: 3).isEmpty)
    }

    @Test func theSameSeedGivesTheSamePathAndAnotherSeedAnotherOne() throws {
        let seed = SeededRandom.testSeed(default: 11)
        print("itinerary determinism seed: \(seed)")
        let routine = try itinerary(berlinRoutine)
        let path = try routine.simulate(days: 90, start: monday, seed: seed)
        #expect(path.vertices == (try routine.simulate(days: 90, start: monday, seed: seed)).vertices)
        #expect(path.vertices != (try routine.simulate(days: 90, start: monday, seed: seed &+ 1)).vertices)
    }

    @Test func aRoutineThatWouldRunPastTheLastTimeIsRefusedNotTrapped() throws {
        let routine = try itinerary(berlinRoutine)
        let lastYear = Itinerary.CivilDate(year: 2262, month: 1, day: 1)
        #expect(throws: SimulationError.pastLatestTime) { try routine.simulate(days: 200, start: lastYear, seed: 1) }
        #expect(throws: SimulationError.pastLatestTime) { try routine.simulate(days: .max, start: monday, seed: 1) }
        #expect(throws: SimulationError.pastLatestTime) { try routine.simulate(days: 90_000, start: monday, seed: 1) }
        let path = try routine.simulate(days: 30, start: lastYear, seed: 1)
        #expect(path.end <= TimedPath.latestEnd)
    }

    /// Berlin's midnight of 1677-09-21 is before the first instant a time
    /// holds (00:12:44 UTC); that of the 22nd is not, in any zone.
    @Test func aRoutineThatWouldBeginBeforeTheFirstTimeIsRefusedNotTrapped() throws {
        let routine = try itinerary(berlinRoutine)
        for day in [Itinerary.CivilDate(year: 1677, month: 9, day: 21), Itinerary.CivilDate(year: 1, month: 1, day: 1)] {
            #expect(throws: SimulationError.beforeEarliestTime, "\(day)") { try routine.simulate(days: 3, start: day, seed: 1) }
        }
        for zone in ["Pacific/Kiritimati", "Pacific/Pago_Pago", "Europe/Berlin"] {
            let zoned = try itinerary(berlinRoutine.replacingOccurrences(of: "Europe/Berlin", with: zone))
            let path = try zoned.simulate(days: 3, start: Itinerary.CivilDate(year: 1677, month: 9, day: 22), seed: 1)
            #expect(path.start.nanoseconds > Int64.min, "\(zone)")
        }
    }

    @Test func aStayOrATripThatWouldPassTheLastTimeIsRefusedNotTrapped() throws {
        func errand(speed: String, stay: String) -> String {
            berlinRoutine.replacingOccurrences(of: #""profile": "car""#, with: #""speed": \#(speed)"#)
                .replacingOccurrences(of: #""stay": "10m""#, with: #""stay": "\#(stay)""#)
        }
        // 2^63 hours overflow as seconds: not a stay.
        #expect(refusal(errand(speed: "13.9", stay: "9223372036854775807h"))?.description.contains("is not a stay") == true)
        for (speed, stay) in [("13.9", "2562047788015215h"), ("1e-9", "10m"), ("1e-300", "10m")] {
            let routine = try itinerary(errand(speed: speed, stay: stay))
            #expect(throws: SimulationError.pastLatestTime, "\(speed) m/s, \(stay)") {
                try routine.simulate(days: 30, start: monday, seed: 1)
            }
        }
        // A stay of 30 years is long, not out of range.
        let decades = try itinerary(errand(speed: "13.9", stay: "262800h")).visits(days: 20, start: monday, seed: 1)
        let pharmacy = decades.first { $0.place == "Pharmacy" }
        let stayed = try #require(pharmacy.map { seconds(from: $0.arrival, to: $0.departure) })
        #expect(abs(stayed - 262_800 * 3_600) < 0.001)
    }

    @Test func weekdayVisitsKeepTheirLocalTimesAcrossTheChangeToSummerTime() throws {
        let work = try itinerary(berlinRoutine).visits(days: 14, start: monday, seed: 1).filter { $0.place == "Work" }
        #expect(work.count == 10)
        for visit in work {
            let summer = visit.arrival > instant(1_743_298_200)  // 2025-03-30T01:30:00Z
            // 09:00 and 17:00 local: 08:00Z and 16:00Z in CET, 07:00Z and 15:00Z in CEST.
            #expect(visit.arrival.nanoseconds / 1_000_000_000 % 86_400 == (summer ? 7 : 8) * 3_600)
            #expect(visit.departure.nanoseconds / 1_000_000_000 % 86_400 == (summer ? 15 : 16) * 3_600)
        }
        #expect(work[4].arrival == instant(1_743_148_800), "Friday 2025-03-28 09:00 CET")
        #expect(work[5].arrival == instant(1_743_404_400), "Monday 2025-03-31 09:00 CEST")
    }

    @Test func aLocalTimeThatDoesNotExistMovesForwardAndARepeatedOneTakesTheFirst() throws {
        let night = try itinerary(
            """
            {"timeZone": "Europe/Berlin", "home": "Home",
             "places": [{"name": "Home", "lat": 52.50, "lon": 13.42}, {"name": "Bakery", "lat": 52.50, "lon": 13.42}],
             "visits": [{"place": "Bakery", "weekdays": ["sun"], "from": "02:30", "to": "04:00"}]}
            """)
        let spring = try night.visits(days: 14, start: Itinerary.CivilDate(year: 2025, month: 3, day: 17), seed: 1)
        #expect(spring.map(\.arrival) == [instant(1_742_693_400), instant(1_743_298_200)], "01:30Z: 02:30 CET, then 03:30 CEST")
        let autumn = try night.visits(days: 2, start: Itinerary.CivilDate(year: 2025, month: 10, day: 25), seed: 1)
        #expect(autumn.map(\.arrival) == [instant(1_761_438_600)], "2025-10-26 02:30 CEST, the first of the two")
    }

    @Test func everyVisitsComeAtIntervalsWithinTheirBounds() throws {
        let seed = SeededRandom.testSeed(default: 20_250_324)
        print("every-visit interval seed: \(seed)")
        let routine = try itinerary(berlinRoutine)
        let pharmacy = try routine.visits(days: 365, start: monday, seed: seed).filter { $0.place == "Pharmacy" }
        let days = pharmacy.map { Itinerary.CivilDate(of: $0.arrival, in: routine.timeZone) }.map(\.daysSince1970)
        let intervals = zip(days, days.dropFirst()).map { $1 - $0 }
        #expect(days[0] - monday.daysSince1970 < 20, "the first visit within the first interval")
        #expect(intervals.allSatisfy { (10...20).contains($0) }, "\(intervals)")
        #expect(Set(intervals).count > 3, "drawn, not fixed: \(intervals)")
        #expect(pharmacy.allSatisfy { seconds(from: $0.arrival, to: $0.departure) == 600 }, "a 10-minute stay")
    }

    @Test func travelTakesDistanceOverSpeed() throws {
        let routine = try itinerary(berlinRoutine)
        let path = try routine.simulate(days: 30, start: monday, seed: 3)
        var legs = 0
        for (from, to) in zip(path.vertices, path.vertices.dropFirst()) where from.coordinate != to.coordinate {
            legs += 1
            let expected = Geodesy.distance(from.coordinate, to.coordinate) / 13.9
            #expect(abs(seconds(from: from.time, to: to.time) - expected) < 1e-6)
        }
        #expect(legs >= 40, "to work and back on 22 weekdays, and the pharmacy")
        let firstWork = try #require(try routine.visits(days: 1, start: monday, seed: 3).first)
        let leftHome = try #require(path.vertices.last { $0.time < firstWork.arrival })
        #expect(leftHome.coordinate == routine.home.coordinate)
        #expect(
            abs(
                seconds(from: leftHome.time, to: firstWork.arrival) - Geodesy.distance(
                    routine.home.coordinate, routine.place("Work")) / 13.9)
                < 1e-6)
    }

    @Test func thePersonIsAtHomeAtNightAndAtTheStartAndEnd() throws {
        let routine = try itinerary(berlinRoutine)
        let path = try routine.simulate(days: 60, start: monday, seed: 5)
        #expect(path.start == instant(1_742_770_800), "local midnight, 2025-03-23T23:00:00Z")
        #expect(path.vertices.first?.coordinate == routine.home.coordinate)
        #expect(path.vertices.last?.coordinate == routine.home.coordinate)
        var cursor = TimedPath.Cursor(path)
        for day in 0..<60 {
            let threeAM = path.start.adding(seconds: Double(day) * 86_400 + 3 * 3_600)  // ±1 h across DST: still night
            #expect(Geodesy.distance(cursor.position(at: threeAM), routine.home.coordinate) == 0, "day \(day)")
        }
    }

    @Test func overlappingVisitsAreChainedWorkThenPharmacyThenHome() throws {
        let routine = try itinerary(berlinRoutine)
        let visits = try routine.visits(days: 120, start: monday, seed: 7)
        let workToPharmacy = Geodesy.distance(routine.place("Work"), routine.place("Pharmacy")) / 13.9
        var onWorkdays = 0
        for (index, visit) in visits.enumerated() where visit.place == "Pharmacy" {
            if Itinerary.CivilDate(of: visit.arrival, in: routine.timeZone).weekday.rawValue <= 5 {
                onWorkdays += 1
                let work = visits[index - 1]
                #expect(work.place == "Work")
                #expect(abs(seconds(from: work.departure, to: visit.arrival) - workToPharmacy) < 1e-6, "straight from work")
            } else {
                #expect(localSecondsOfDay(visit.arrival, in: routine.timeZone) == 12 * 3_600, "midday on a free day")
            }
        }
        #expect(onWorkdays > 0)
    }

    @Test func aVisitAtATimeTakenByWorkWaitsUntilWorkEnds() throws {
        let lunch = try itinerary(
            berlinRoutine.replacingOccurrences(of: "\"every\": \"10d-20d\"", with: "\"every\": \"1d\", \"at\": \"12:00\""))
        let visits = try lunch.visits(days: 7, start: monday, seed: 1)
        #expect(
            visits.map(\.place) == Array(repeating: ["Work", "Pharmacy"], count: 5).flatMap { $0 } + ["Pharmacy", "Pharmacy"])
        let saturdayNoon = instant(1_743_246_000)  // 2025-03-29T11:00:00Z, 12:00 CET
        #expect(visits[10].arrival == saturdayNoon)
        #expect(visits[1].arrival > visits[0].departure)
    }
}
