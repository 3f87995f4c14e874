import Foundation

/// How fast a run plays its feed (`--speed`): as fast as it can, at the
/// feed's own pace, or a number of times faster.
public enum Pace: Hashable, Sendable {
    /// As fast as possible.
    case max
    /// `factor` feed seconds per wall-clock second (1 is real time).
    case times(Double)

    /// Reads `max`, `realtime` or a positive factor (`10`, `0.5`).
    public init?(_ text: String) {
        switch text.lowercased() {
        case "max": self = .max
        case "realtime": self = .times(1)
        default:
            guard let factor = Double(text), factor > 0, factor.isFinite else { return nil }
            self = .times(factor)
        }
    }
}

/// Keeps a run at its ``Pace``: how long to wait before the fix at a feed
/// time, measured from the first fix and the wall clock then.
struct Pacer {
    let pace: Pace
    private var origin: (feed: Double, wall: Date)?

    init(pace: Pace) { self.pace = pace }

    /// Seconds to sleep before handing on a fix at `feedSeconds` (0 when
    /// the run is flat out or behind).
    mutating func delay(before feedSeconds: Double) -> Double {
        guard case .times(let factor) = pace else { return 0 }
        guard let origin else {
            origin = (feedSeconds, Date())
            return 0
        }
        let due = origin.wall.addingTimeInterval((feedSeconds - origin.feed) / factor)
        return max(0, due.timeIntervalSinceNow)
    }
}
