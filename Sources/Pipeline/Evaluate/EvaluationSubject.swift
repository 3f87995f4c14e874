import Evaluation
import GeoCore

/// One feed to score and the truth to score it against.
public struct EvaluationSubject: Sendable {
    /// The truth: tracks, or hand-labelled events.
    public enum Truth: Sendable {
        /// Where each device really was, in time order per device.
        case tracks([TruthTrackPoints])
        /// Hand-labelled entries and exits (`--truth-events`).
        case events([ScoredEvent])
    }

    /// The feed's fixes as delivered (in delivery order).
    public var fixes: [Fix]
    /// The truth.
    public var truth: Truth

    /// A subject.
    public init(fixes: [Fix], truth: Truth) {
        self.fixes = fixes
        self.truth = truth
    }

    /// The devices of the feed, in order of their first fix.
    public var feedDevices: [String?] {
        var seen = Set<String?>()
        return fixes.compactMap { seen.insert($0.device).inserted ? .some($0.device) : nil }
    }

    /// The devices of the truth.
    public var truthDevices: [String?] {
        switch truth {
        case .tracks(let tracks): return tracks.map(\.device)
        case .events(let events):
            var seen = Set<String?>()
            return events.compactMap { seen.insert($0.device).inserted ? .some($0.device) : nil }
        }
    }
}

/// One device's truth track.
public struct TruthTrackPoints: Sendable {
    /// The device (`nil`: a single unnamed one).
    public var device: String?
    /// Its points, in time order.
    public var points: [TimedFix]

    /// A track.
    public init(device: String?, points: [TimedFix]) {
        self.device = device
        self.points = points
    }

    /// The tracks of `fixes` (a decoded truth feed), one per device in
    /// order of first appearance, each sorted by time (stable); fixes
    /// without time are left out.
    public static func grouping(_ fixes: [Fix]) -> [TruthTrackPoints] {
        var order: [String?] = []
        var points: [String?: [TimedFix]] = [:]
        for fix in fixes {
            guard let timed = TimedFix(fix) else { continue }
            if points[fix.device] == nil { order.append(fix.device) }
            points[fix.device, default: []].append(timed)
        }
        return order.map { device in
            let track = points[device]!
            let sorted = zip(track.indices, track).sorted { ($0.1.time, $0.0) < ($1.1.time, $1.0) }.map(\.1)
            return TruthTrackPoints(device: device, points: sorted)
        }
    }
}

/// Which truth device each feed device is scored against: the same name;
/// else the name without its file extension (a file named after a device,
/// `dev1.nmea`); else, when feed and truth have one device each, that one.
public struct DeviceMatching: Sendable {
    private let truthDevice: [String?: String?]
    /// Feed devices without truth: their detections are not scored.
    public let unmatched: [String?]

    /// The matching of `feed` devices to `truth` devices.
    public init(feed: [String?], truth: [String?]) {
        let known = Set(truth)
        var mapping: [String?: String?] = [:]
        var unmatched: [String?] = []
        for device in feed {
            if known.contains(device) {
                mapping[device] = .some(device)
            } else if let device, let dot = device.lastIndex(of: "."), known.contains(String(device[..<dot])) {
                mapping[device] = .some(String(device[..<dot]))
            } else if feed.count == 1, truth.count == 1 {
                mapping[device] = .some(truth[0])
            } else {
                unmatched.append(device)
            }
        }
        truthDevice = mapping
        self.unmatched = unmatched
    }

    /// The truth device of a feed device; `nil` when it has none.
    public func truthDevice(of device: String?) -> String?? { truthDevice[device] }
}
