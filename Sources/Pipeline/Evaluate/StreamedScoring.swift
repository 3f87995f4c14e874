import Evaluation
import FeedParsing
import GeoCore

extension FeedEvaluation {
    /// The truth of one feed and what each of `settings` detects on it,
    /// neither kept: the fixes `feed()` reads go through every setting at
    /// once in reads of a few thousand (settings on up to `jobs` threads)
    /// while the points `truth()` reads are scanned beside them; a truth
    /// out of time order is read again and its tracks kept and sorted.
    /// What ``truth(of:)`` and ``detect(_:devices:setting:)`` give on the
    /// same fixes kept whole.
    public func score<Feed: Sequence<Fix> & SendableMetatype, Points: Sequence<Fix> & SendableMetatype>(
        feed: @Sendable () -> Feed, truth: @Sendable () -> Points, settings: [EvaluationSetting], jobs: Int
    ) -> (truth: Truth, detections: [Detection]) {
        // The truth on a thread of its own, the feed and its settings on the
        // others.
        let halves = parallelMap(count: 2, jobs: min(jobs, 2)) { half -> ScoredHalf in
            guard half == 1 else { return .feed(detect(feed(), settings: settings, jobs: jobs)) }
            var scanner = TruthScanner(evaluation: self)
            for point in truth() { scanner.add(point) }
            if scanner.isInTimeOrder { return .scanned(scanner) }
            var tracks = TruthTrackBuilder()
            for point in truth() { tracks.add(point) }
            return .tracks(tracks.finish())
        }
        guard case .feed(let detection) = halves[0] else { preconditionFailure("the first half detects") }
        let scored: Truth
        switch halves[1] {
        case .scanned(var scanner): scored = self.truth(scanned: &scanner, feedDevices: detection.feedDevices)
        case .tracks(let tracks): scored = self.truth(of: tracks, feedDevices: detection.feedDevices)
        case .feed: preconditionFailure("the second half is the truth")
        }
        return (scored, detection.detections(devices: scored.devices))
    }

    /// Every setting's detection on `feed`, read by read.
    private func detect<Feed: Sequence<Fix>>(_ feed: Feed, settings: [EvaluationSetting], jobs: Int) -> SweepDetection {
        let detection = SweepDetection(evaluation: self, settings: settings, jobs: jobs)
        var batch = FeedBatch()
        batch.fixes.reserveCapacity(Self.readLength)
        for fix in feed {
            batch.fixes.append(fix)
            guard batch.fixes.count == Self.readLength else { continue }
            detection.decoded(batch, feed: "")
            batch.fixes.removeAll(keepingCapacity: true)
        }
        if !batch.fixes.isEmpty { detection.decoded(batch, feed: "") }
        return detection
    }

    /// Fixes handed to the settings at once.
    private static let readLength = 4096
}

/// What each half of ``FeedEvaluation/score(feed:truth:settings:jobs:)`` made.
private enum ScoredHalf: @unchecked Sendable {
    /// The feed's detections (the sweep is handed from its worker to the caller, then left).
    case feed(SweepDetection)
    /// The truth, scanned.
    case scanned(TruthScanner)
    /// The truth, kept (out of time order).
    case tracks([TruthTrackPoints])
}
