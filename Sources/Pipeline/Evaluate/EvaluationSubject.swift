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

        /// The devices of the truth, in order of first appearance.
        public var devices: [String?] {
            switch self {
            case .tracks(let tracks): return tracks.map(\.device)
            case .events(let events):
                var seen = Set<String?>()
                return events.compactMap { seen.insert($0.device).inserted ? .some($0.device) : nil }
            }
        }
    }

    /// The feed's fixes as delivered (in delivery order).
    public let fixes: [Fix]
    /// The truth.
    public let truth: Truth
    /// The devices of the feed, in order of their first fix (found once:
    /// the runner, the summary and the warnings all ask).
    public let feedDevices: [String?]

    /// A subject.
    public init(fixes: [Fix], truth: Truth) {
        self.fixes = fixes
        self.truth = truth
        var numbering = DeviceNumbering()
        for fix in fixes { _ = numbering.number(of: fix.deviceID) }
        feedDevices = numbering.devices
    }

    /// The devices of the truth.
    public var truthDevices: [String?] { truth.devices }
}

/// One device's truth track.
public struct TruthTrackPoints: Sendable {
    /// The device (`nil`: a single unnamed one).
    public var device: String?
    /// Its points, in time order.
    public var points: [TruthPoint]

    /// A track.
    public init(device: String?, points: [TruthPoint]) {
        self.device = device
        self.points = points
    }
}

/// Truth tracks gathered from a truth feed fix by fix, one per device in
/// order of first appearance, 24 bytes a point; fixes without time are
/// left out.
public struct TruthTrackBuilder: Sendable {
    /// Each device's number is its track's place.
    private var numbering = DeviceNumbering()
    private var tracks: [TruthTrackPoints] = []

    /// No tracks yet.
    public init() {}

    /// Adds one truth point.
    public mutating func add(_ fix: Fix) {
        guard let time = fix.time else { return }
        let (number, isNew) = numbering.number(of: fix.deviceID)
        if isNew { tracks.append(TruthTrackPoints(device: fix.device, points: [])) }
        tracks[number].points.append(TruthPoint(time: time, coordinate: fix.coordinate))
    }

    /// The tracks, each put in time order (stable) where it was not.
    public mutating func finish() -> [TruthTrackPoints] {
        defer { self = TruthTrackBuilder() }
        return tracks.map { track in
            guard zip(track.points, track.points.dropFirst()).contains(where: { $0.time > $1.time }) else { return track }
            let points = track.points.enumerated().sorted { ($0.1.time, $0.0) < ($1.1.time, $1.0) }.map(\.1)
            return TruthTrackPoints(device: track.device, points: points)
        }
    }
}

/// Which truth device each feed device is scored against: the same name;
/// else the name without its file extension (a file named after a device,
/// `dev1.nmea`); else, when feed and truth have one device each, that one.
public struct DeviceMatching: Sendable {
    /// The truth devices' names, to match feed devices' by.
    private let known: Set<String?>
    /// The feed's device and the truth's, when each has only that one and
    /// their names do not match.
    private let lonePair: (feed: String?, truth: String?)?
    /// Feed devices without truth: their detections are not scored.
    public let unmatched: [String?]
    /// The truth devices.
    public let truth: [String?]

    /// The matching of `feed` devices to `truth` devices. Only the truth's
    /// names are kept, not a table of the feed's: a feed device's truth
    /// device is found by its name when asked.
    public init(feed: [String?], truth: [String?]) {
        let known = Set(truth)
        var lonePair: (feed: String?, truth: String?)?
        var unmatched: [String?] = []
        for device in feed where Self.match(device, in: known) == nil {
            if feed.count == 1, truth.count == 1 {
                lonePair = (device, truth[0])
            } else {
                unmatched.append(device)
            }
        }
        self.known = known
        self.lonePair = lonePair
        self.unmatched = unmatched
        self.truth = truth
    }

    /// The truth device of a feed device; `nil` when it has none.
    public func truthDevice(of device: String?) -> String?? {
        if let matched = Self.match(device, in: known) { return matched }
        if let lonePair, lonePair.feed == device { return .some(lonePair.truth) }
        return nil
    }

    /// The truth device among `known` that `device` is named after: the
    /// same name, else the name without its extension; `nil` for none.
    private static func match(_ device: String?, in known: Set<String?>) -> String?? {
        if known.contains(device) { return .some(device) }
        if let device, let dot = device.lastIndex(of: "."), known.contains(String(device[..<dot])) {
            return .some(String(device[..<dot]))
        }
        return nil
    }
}
