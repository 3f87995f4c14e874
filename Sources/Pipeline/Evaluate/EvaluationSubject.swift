import Evaluation
import GeoCore
import Geofencing

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
        var seen = Set<String?>()
        var devices: [String?] = []
        var last: String??
        for fix in fixes where last != .some(fix.device) {
            last = .some(fix.device)
            if seen.insert(fix.device).inserted { devices.append(fix.device) }
        }
        feedDevices = devices
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

/// The true events, coverage and reference reminders of a truth feed
/// found fix by fix, without keeping its tracks: what
/// ``FeedEvaluation/truth(of:feedDevices:)`` finds on the tracks a
/// ``TruthTrackBuilder`` gathers from the same fixes, while they come in
/// time order (``isInTimeOrder``).
public struct TruthScanner: Sendable {
    private let finder: TrueEventFinder
    /// Each device's number is its scan's place.
    private var numbering = DeviceNumbering()
    private var scans: [TruthTrackScan] = []
    /// With tasks: their reminders on the truth, and the points of the
    /// latest instant, which go to them in device order once a later
    /// point comes (the order of the kept tracks' merge).
    private var reference: FeedEvaluation.ReferenceReminders?
    private var instant: [(device: Int, point: TruthPoint)] = []
    /// Whether the points so far came in time order: each device's, and
    /// with tasks all devices' together. Once they did not, the rest are
    /// not scanned (the tracks must be kept and sorted instead).
    public private(set) var isInTimeOrder = true

    /// Whether some device has two points or more: a track with a segment.
    public var hasSegment: Bool { scans.contains { $0.count > 1 } }

    /// A scanner for the regions and tasks of `evaluation`.
    public init(evaluation: FeedEvaluation) {
        finder = evaluation.trueEventFinder()
        reference = evaluation.scoresReminders ? FeedEvaluation.ReferenceReminders(evaluation) : nil
    }

    /// Adds one truth point; fixes without time are left out.
    public mutating func add(_ fix: Fix) {
        guard isInTimeOrder, let time = fix.time else { return }
        let (device, isNew) = numbering.number(of: fix.deviceID)
        if isNew { scans.append(TruthTrackScan(device: fix.device)) }
        let point = TruthPoint(time: time, coordinate: fix.coordinate)
        isInTimeOrder = scans[device].add(point, finder: finder)
        guard reference != nil, isInTimeOrder else { return }
        if let latest = instant.first?.point.time, latest != time {
            guard latest < time else {
                isInTimeOrder = false
                return
            }
            remindAtInstant()
        }
        instant.append((device, point))
    }

    /// Hands the points of the latest instant to the reference reminders,
    /// in device order.
    private mutating func remindAtInstant() {
        let order = instant.indices.sorted { (instant[$0].device, $0) < (instant[$1].device, $1) }
        for index in order { reference?.push(instant[index].point, device: scans[instant[index].device].device) }
        instant.removeAll(keepingCapacity: true)
    }

    /// The truth devices in order of first appearance, their true events
    /// in the order ``FeedEvaluation/truth(of:feedDevices:)`` gives them,
    /// their coverage, and with tasks the reference reminders.
    public mutating func finish() -> (
        devices: [String?], events: [ScoredEvent], coverage: TruthCoverage, reminders: [ScoredEvent]?
    ) {
        precondition(isInTimeOrder, "a truth out of time order is scored from its kept tracks")
        var events: [ScoredEvent] = []
        var coverage = TruthCoverage()
        for index in scans.indices {
            events += scans[index].finish(finder: finder)
            coverage.add(scans[index].coverage)
        }
        remindAtInstant()
        let reminders = reference?.finish()
        let devices = scans.map(\.device)
        scans = []
        reference = nil
        return (devices, events, coverage, reminders)
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
