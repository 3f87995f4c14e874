import GeoCore

extension TimedPath {
    /// How the device moves along one leg: its speed and course, as a
    /// receiver reports them.
    struct Motion {
        /// Metres per second: the leg's length over its duration; 0 when
        /// parked, `nil` for a jump in no time.
        var speed: Double?
        /// The leg's initial bearing in degrees; `nil` when parked.
        var course: Double?
    }

    /// The motion on the leg from vertex `leg` to the next.
    func motion(onLeg leg: Int) -> Motion {
        let from = vertices[leg]
        let to = vertices[leg + 1]
        let metres = Geodesy.distance(from.coordinate, to.coordinate)
        let seconds = to.time.nanoseconds(since: from.time) / 1e9
        if metres == 0 { return Motion(speed: 0, course: nil) }
        return Motion(
            speed: seconds > 0 ? metres / seconds : nil, course: Geodesy.bearing(from: from.coordinate, to: to.coordinate))
    }
}
