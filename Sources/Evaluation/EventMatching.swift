import GeoCore

/// The matching of detected events to true ones (DESIGN.md, "Evaluation").
///
/// Per (device, region, kind), in time order, each true event takes the
/// earliest unmatched detected event within [t − early, t + late]. This
/// greedy rule finds the largest number of matches: windows are the same
/// width for every true event, so taking the earliest candidate never
/// takes one a later true event could need more.
public struct EventMatching: Sendable {
    /// One match: indices into the true and the detected events, and the
    /// latency in seconds (detected − true; negative when early).
    public struct Match: Hashable, Sendable {
        /// The true event's index.
        public var truth: Int
        /// The detected event's index.
        public var detected: Int
        /// Seconds from the true event to the detection.
        public var latency: Double
    }

    /// The matches, in the order of the true events.
    public private(set) var matches: [Match] = []
    /// Indices of the true events left unmatched (false negatives).
    public private(set) var missedTruth: [Int] = []
    /// Indices of the detected events left unmatched (false positives).
    public private(set) var unmatchedDetections: [Int] = []

    /// Matches `detected` to `truth` within `early` seconds before and
    /// `late` seconds after each true event.
    public init(truth: [ScoredEvent], detected: [ScoredEvent], early: Double, late: Double) {
        // Times apart from the events, so that the loops below touch no
        // strings.
        let truthTimes = truth.map(\.time.nanoseconds)
        let detectedTimes = detected.map(\.time.nanoseconds)
        let truthGroups = Self.groups(truth, times: truthTimes)
        var detectedGroups = Self.groups(detected, times: detectedTimes)
        var used = [Bool](repeating: false, count: detected.count)
        let before = Int64((early * 1e9).rounded())
        let after = Int64((late * 1e9).rounded())
        for (key, trueIndices) in truthGroups {
            let candidates = detectedGroups.removeValue(forKey: key) ?? []
            var first = 0
            for index in trueIndices {
                let time = truthTimes[index]
                // Held at the ends of the times a timestamp holds (1677, 2262).
                let earliest = time.subtractingReportingOverflow(before).overflow ? Int64.min : time - before
                let latest = time.addingReportingOverflow(after).overflow ? Int64.max : time + after
                while first < candidates.count, detectedTimes[candidates[first]] < earliest { first += 1 }
                var position = first
                while position < candidates.count, used[candidates[position]] { position += 1 }
                guard position < candidates.count, detectedTimes[candidates[position]] <= latest else {
                    missedTruth.append(index)
                    continue
                }
                let chosen = candidates[position]
                used[chosen] = true
                matches.append(Match(truth: index, detected: chosen, latency: Double(detectedTimes[chosen] - time) / 1e9))
            }
        }
        matches.sort { $0.truth < $1.truth }
        missedTruth.sort()
        unmatchedDetections = used.indices.filter { !used[$0] }
    }

    private struct Key: Hashable {
        var device: String?
        var region: String
        var kind: ScoredEvent.Kind
    }

    /// Indices of `events` by (device, region, kind), each in time order
    /// (ties in input order).
    private static func groups(_ events: [ScoredEvent], times: [Int64]) -> [Key: [Int]] {
        var groups: [Key: [Int]] = [:]
        for (index, event) in events.enumerated() {
            groups[Key(device: event.device, region: event.region, kind: event.kind), default: []].append(index)
        }
        for key in groups.keys {
            groups[key]!.sort { (times[$0], $0) < (times[$1], $1) }
        }
        return groups
    }
}
