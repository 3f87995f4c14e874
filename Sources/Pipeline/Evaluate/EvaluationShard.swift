import Evaluation
import GeoCore

/// Which devices, or runs, an `evaluate --shard I/N` process scores.
///
/// A recorded feed's devices go by the FNV-1a hash of their name up to
/// its first dot, so that a feed device named after its file (`dev1.nmea`)
/// falls with its truth device (`dev1`); a truth device goes with the feed
/// devices scored against it (a single feed device takes a single truth
/// device whatever their names), or by its own name when none is. The runs
/// of a `--scenario` go whole: run n to shard (n − 1) mod N.
public struct EvaluationShard: Sendable, Hashable {
    /// The shard, from 0.
    public let index: Int
    /// The number of shards.
    public let count: Int

    /// Shard `index` of `count`.
    public init(index: Int, count: Int) {
        precondition(count >= 1 && (0..<count).contains(index), "a shard from 0 to count − 1")
        self.index = index
        self.count = count
    }

    /// The shard of the device `name`.
    public func shard(ofDevice name: String?) -> Int {
        var shards = DeviceShard(count: count)
        return shards.shard(of: name.map { String($0.prefix { $0 != "." }) })
    }

    /// Whether the feed device `name` is this shard's.
    public func holds(feedDevice name: String?) -> Bool { shard(ofDevice: name) == index }

    /// Whether run `number` (from 1) of a scenario is this shard's.
    public func holds(run number: Int) -> Bool { (number - 1) % count == index }

    /// The truth devices this shard scores, of those `matching` lists,
    /// given the feed's devices `feedDevices`.
    public func truthDevices(_ matching: DeviceMatching, feedDevices: [String?]) -> Set<String?> {
        var shardOf: [String?: Int] = [:]
        for device in feedDevices {
            guard case .some(let truth) = matching.truthDevice(of: device), shardOf[truth] == nil else { continue }
            shardOf[truth] = shard(ofDevice: device)
        }
        return Set(matching.truth.filter { (shardOf[$0] ?? shard(ofDevice: $0)) == index })
    }
}

/// What a shard found on one run: per setting, the counts that add up
/// across shards and the latencies that pool, and each of its truth
/// devices' coverage with its place among the run's, so that the merge
/// adds them in the unsharded run's order (the same bits).
public struct EvaluationRunTally: Codable, Sendable, Equatable {
    /// The run, from 1 (a recorded feed is run 1).
    public var run: Int
    /// The shard's truth devices' coverage, by place among the run's truth
    /// devices; `nil` for hand-labelled events.
    public var coverage: [DeviceCoverage]?
    /// One per setting, in the sweep's order.
    public var settings: [SettingTally]

    /// One truth device's coverage and place.
    public struct DeviceCoverage: Codable, Sendable, Equatable {
        /// Its place among the run's truth devices (first appearance).
        public var place: Int
        /// Hours from its first truth point to its last.
        public var hours: Double
        /// Kilometres along its track.
        public var km: Double
    }

    /// One setting's counts on the shard's devices.
    public struct SettingTally: Codable, Sendable, Equatable {
        /// Entries.
        public var enter: KindTally
        /// Exits.
        public var exit: KindTally
        /// True visits and those recalled.
        public var visits: Int, recalled: Int
        /// Fixes less accurate than the gate, invalid, without time, and
        /// dropped as late (the summary's "fixes ignored").
        public var inaccurate: Int, invalid: Int, untimed: Int, late: Int
    }

    /// One kind's counts and the matches' latencies.
    public struct KindTally: Codable, Sendable, Equatable {
        /// Matched true events.
        public var tp: Int
        /// Detections left unmatched.
        public var fp: Int
        /// True events left unmatched.
        public var fn: Int
        /// Each match's latency in seconds, ascending.
        public var latencies: [Double]
    }

    /// The tally of run `run` on the truth devices `devices` (`nil`:
    /// every one): its `truth` and each setting's `detections`, matched
    /// within `window`.
    public init(
        run: Int, truth: FeedEvaluation.Truth, detections: [FeedEvaluation.Detection], window: MatchWindow,
        devices: Set<String?>?
    ) {
        self.run = run
        let truthEvents = devices.map { kept in truth.events.filter { kept.contains($0.device) } } ?? truth.events
        coverage = truth.deviceCoverage.map { coverage in
            // A device without time or distance adds nothing to the sums.
            zip(truth.devices.truth, coverage).enumerated().compactMap { place, named in
                let (device, covered) = named
                guard devices?.contains(device) ?? true, covered.deviceHours > 0 || covered.kilometres > 0
                else { return nil }
                return DeviceCoverage(place: place, hours: covered.deviceHours, km: covered.kilometres)
            }
        }
        settings = detections.map { detection in
            let detected = devices.map { kept in detection.events.filter { kept.contains($0.device) } } ?? detection.events
            let matching = EventMatching(truth: truthEvents, detected: detected, window: window)
            let visits = VisitRecall(matching, truth: truthEvents)
            let statistics = detection.statistics
            return SettingTally(
                enter: KindTally(matching, truth: truthEvents, detected: detected, kind: .enter),
                exit: KindTally(matching, truth: truthEvents, detected: detected, kind: .exit),
                visits: visits.visits, recalled: visits.recalled, inaccurate: statistics.detector.inaccurate,
                invalid: statistics.detector.invalid, untimed: statistics.untimed, late: statistics.late)
        }
    }
}

extension EvaluationRunTally.KindTally {
    /// The counts of `kind` in `matching`.
    init(_ matching: EventMatching, truth: [ScoredEvent], detected: [ScoredEvent], kind: ScoredEvent.Kind) {
        let matches = matching.matches.filter { truth[$0.truth].kind == kind }
        tp = matches.count
        fp = matching.unmatchedDetections.filter { detected[$0].kind == kind }.count
        fn = matching.missedTruth.filter { truth[$0].kind == kind }.count
        latencies = matches.map(\.latency).sorted()
    }

    /// No counts and no latencies.
    static let zero = Self(tp: 0, fp: 0, fn: 0, latencies: [])

    /// Both tallies' counts and latencies together.
    static func + (a: Self, b: Self) -> Self {
        Self(tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn, latencies: a.latencies + b.latencies)
    }

    /// The scores of these counts.
    var metrics: DetectionMetrics {
        DetectionMetrics(truePositives: tp, falsePositives: fp, falseNegatives: fn, sortedLatencies: latencies.sorted())
    }
}
