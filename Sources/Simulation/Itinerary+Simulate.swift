import GeoCore

extension Itinerary {
    /// Where the person is for `days` days from local midnight of `start`
    /// to local midnight after the last day (or later, once home from a
    /// visit that runs past it). The same seed gives the same path.
    ///
    /// Appointments are taken in order of intended arrival. The person
    /// leaves so as to arrive on time; when the visit before ends too late
    /// for that, they go straight from it (chained: work → pharmacy →
    /// home) and arrive late. Between visits they go home if they can be
    /// home before they must leave again, else they stay where they are. A
    /// weekday visit keeps its end time and is skipped if it could not
    /// begin before it; an "every" visit keeps its stay.
    /// - Throws: ``SimulationError/invalidValue(_:_:)`` if `days` is less
    ///   than 1; ``SimulationError/beforeEarliestTime`` if `start` is before
    ///   1677-09-22, ``SimulationError/pastLatestTime`` if the walk would
    ///   end after ``TimedPath/latestEnd``.
    public func simulate(days: Int, start: CivilDate, seed: UInt64) throws(SimulationError) -> TimedPath {
        try walk(days: days, start: start, seed: seed).path
    }

    /// The visits ``simulate(days:start:seed:)`` makes with the same
    /// arguments, in order.
    /// - Throws: as ``simulate(days:start:seed:)`` does.
    public func visits(days: Int, start: CivilDate, seed: UInt64) throws(SimulationError) -> [Visit] {
        try walk(days: days, start: start, seed: seed).visits
    }

    /// The weekday visits ``simulate(days:start:seed:)`` skips with the
    /// same arguments, in order: those the person could not reach before
    /// they end (each as planned: its arrival and its end).
    /// - Throws: as ``simulate(days:start:seed:)`` does.
    public func skippedVisits(days: Int, start: CivilDate, seed: UInt64) throws(SimulationError) -> [Visit] {
        try walk(days: days, start: start, seed: seed).skipped
    }

    private func walk(days: Int, start: CivilDate, seed: UInt64) throws(SimulationError) -> Walk {
        guard days >= 1 else { throw .invalidValue("days", "must be 1 or more") }
        // The first day's midnight, local time (a day either side of UTC),
        // after the first instant a time holds (1677-09-21T00:12:44Z).
        guard Int64(start.daysSince1970) > Int64.min / 86_400_000_000_000 - 1 else { throw .beforeEarliestTime }
        // The last day's midnight, local time (a day either side of UTC),
        // before the latest end: no instant of the walk can pass it.
        let lastDay = Int64(start.daysSince1970).addingReportingOverflow(Int64(days))
        guard !lastDay.overflow, lastDay.partialValue < TimedPath.latestEnd.nanoseconds / 86_400_000_000_000 - 1 else {
            throw .pastLatestTime
        }
        let clock = LocalClock(zone: timeZone)
        var walk = Walk(itinerary: self, start: clock.instant(day: start.daysSince1970, secondsOfDay: 0))
        for appointment in appointments(days: days, start: start, seed: seed) {
            walk.keep(appointment)
        }
        guard !walk.overran else { throw .pastLatestTime }
        walk.goHome()
        walk.stayHome(until: clock.instant(day: start.daysSince1970 + days, secondsOfDay: 0))
        return walk
    }
}

/// The person's movements, built one appointment at a time.
private struct Walk {
    let itinerary: Itinerary
    private(set) var vertices: [TimedPath.Vertex]
    private(set) var visits: [Itinerary.Visit] = []
    /// The weekday visits that could not begin before their end, as planned.
    private(set) var skipped: [Itinerary.Visit] = []
    /// Where the person is (an index into the places).
    private var here: Int
    /// When they may leave: the end of the visit in progress, or when they got home.
    private var free: Timestamp
    /// The arrival of the visit in progress; nil at home.
    private var visitArrival: Timestamp?
    /// Whether an appointment (its stay, or a trip at a crawl) would have
    /// taken the walk past ``TimedPath/latestEnd``: it stopped before it.
    private(set) var overran = false

    init(itinerary: Itinerary, start: Timestamp) {
        self.itinerary = itinerary
        here = itinerary.homeIndex
        free = start
        vertices = [TimedPath.Vertex(time: start, coordinate: itinerary.home.coordinate)]
    }

    /// The path walked; the walk starts and ends at home at two different
    /// midnights and only ever appends later times, so it is valid.
    var path: TimedPath { try! TimedPath(vertices: vertices) }

    /// Goes to `appointment` by the rules of ``Itinerary/simulate(days:start:seed:)``.
    mutating func keep(_ appointment: Appointment) {
        guard !overran, fits(appointment) else {
            overran = true
            return
        }
        if visitArrival != nil {
            let home = itinerary.homeIndex
            let homeBy = free.adding(seconds: travel(here, home))
            if homeBy <= appointment.arrival.adding(seconds: -travel(home, appointment.place)) { goHome() }
        }
        let leaving = max(free, appointment.arrival.adding(seconds: -travel(here, appointment.place)))
        let arrival = leaving.adding(seconds: travel(here, appointment.place))
        let end: Timestamp
        switch appointment.end {
        case .at(let time):
            guard arrival < time else {
                skipped.append(
                    Itinerary.Visit(
                        place: itinerary.places[appointment.place].name, arrival: appointment.arrival, departure: time))
                return
            }
            end = time
        case .after(let stay):
            end = arrival.adding(seconds: stay)
        }
        move(to: appointment.place, leaving: leaving)
        visitArrival = arrival
        free = end
    }

    /// Home from the visit in progress, if any, as soon as it ends.
    mutating func goHome() {
        guard visitArrival != nil else { return }
        move(to: itinerary.homeIndex, leaving: free)
        visitArrival = nil
        free = vertices[vertices.count - 1].time
    }

    /// At home until `time`, if that is later than now.
    mutating func stayHome(until time: Timestamp) {
        append(time: max(time, free), place: here)
    }

    private mutating func move(to place: Int, leaving: Timestamp) {
        if let visitArrival {
            visits.append(Itinerary.Visit(place: itinerary.places[here].name, arrival: visitArrival, departure: leaving))
        }
        append(time: leaving, place: here)
        append(time: leaving.adding(seconds: travel(here, place)), place: place)
        here = place
    }

    private mutating func append(time: Timestamp, place: Int) {
        let vertex = TimedPath.Vertex(time: time, coordinate: itinerary.places[place].coordinate)
        if vertex != vertices[vertices.count - 1] { vertices.append(vertex) }
    }

    /// Whether every time that keeping `appointment`, and going home
    /// after it, can make lies between the first instant a time holds and
    /// ``TimedPath/latestEnd``: each is within its trips and its stay of
    /// now or of its arrival.
    private func fits(_ appointment: Appointment) -> Bool {
        let home = itinerary.homeIndex
        var reach = travel(here, home) + travel(home, appointment.place) + travel(here, appointment.place)
        reach += travel(appointment.place, home)
        if case .after(let stay) = appointment.end { reach += stay }
        let earliest = Double(min(free, appointment.arrival).nanoseconds) - reach * 1e9
        let latest = Double(max(free, appointment.arrival).nanoseconds) + reach * 1e9
        return earliest > Double(Int64.min) && latest < Double(TimedPath.latestEnd.nanoseconds)
    }

    private func travel(_ from: Int, _ to: Int) -> Double {
        Geodesy.distance(itinerary.places[from].coordinate, itinerary.places[to].coordinate) / itinerary.speed
    }
}
