import GeoCore

/// A linear map from feed time to pixels, with ticks on round UTC times
/// (minutes, hours, days, Mondays, months): the time axis of a timeline.
public struct TimeScale: Hashable, Sendable {
    /// The earliest time shown.
    public var startTime: Timestamp
    /// The latest time shown (after ``startTime``; a zero span is widened
    /// by a minute each way).
    public var endTime: Timestamp
    /// The pixel of ``startTime``.
    public var left: Double
    /// The pixel of ``endTime``.
    public var right: Double

    /// A scale from `start…end` to the pixels `left…right`.
    public init(from start: Timestamp, to end: Timestamp, left: Double, right: Double) {
        if end.nanoseconds(since: start) < 1_000_000_000 {
            startTime = start.adding(clampedSeconds: -60)
            endTime = start.adding(clampedSeconds: 60)
        } else {
            startTime = start
            endTime = end
        }
        self.left = left
        self.right = right
    }

    /// The pixel of `time`.
    public func position(_ time: Timestamp) -> Double {
        let span = endTime.secondsSince1970 - startTime.secondsSince1970
        return left + (time.secondsSince1970 - startTime.secondsSince1970) / span * (right - left)
    }

    /// Ticks on round times inside the span, at most `count` of them,
    /// labelled `06:00` (with the date where the day changes), `2020-12-14`
    /// or `2021-01`.
    public func ticks(count: Int) -> [(time: Timestamp, label: String)] {
        let span = endTime.secondsSince1970 - startTime.secondsSince1970
        let first = startTime.secondsSince1970, last = endTime.secondsSince1970
        if let step = Self.steps.first(where: { span / $0 <= Double(max(count, 1)) }) {
            // Weeks start on Monday: 1970-01-01 was a Thursday, Monday 1970-01-05 is 4 days in.
            let offset = step == 604_800 ? 4 * 86400.0 : 0
            var value = ((first - offset) / step).rounded(.up) * step + offset
            var ticks: [(Timestamp, String)] = []
            var lastDay: Int?
            while value <= last {
                let time = Timestamp(secondsSince1970: value)
                let (day, _) = Format.split(time)
                if step >= 86400 {
                    ticks.append((time, Format.day(day)))
                } else {
                    let clock = String(Format.minute(time).suffix(5))
                    ticks.append((time, day == lastDay ? clock : String(Format.day(day).dropFirst(5)) + " " + clock))
                }
                lastDay = day
                value += step
            }
            return ticks
        }
        let months = [1, 2, 3, 6, 12, 24, 60, 120].first { span / (Double($0) * 30.44 * 86400) <= Double(max(count, 1)) } ?? 120
        var (year, month, _) = CivilCalendar.date(fromDays: Format.split(startTime).days)
        var index = year * 12 + month - 1
        index = (index + months - 1) / months * months  // the first multiple of the step at or after the start's month
        var ticks: [(Timestamp, String)] = []
        while true {
            year = index / 12
            month = index % 12 + 1
            let seconds = Double(CivilCalendar.days(year: year, month: month, day: 1)) * 86400
            if seconds > last { break }
            if seconds >= first {
                ticks.append((Timestamp(secondsSince1970: seconds), String(year) + "-" + Format.twoDigits(month)))
            }
            index += months
        }
        return ticks
    }

    /// Steps of whole seconds, up to a week.
    private static let steps: [Double] = [
        60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172_800, 259_200, 604_800, 1_209_600,
    ]
}
