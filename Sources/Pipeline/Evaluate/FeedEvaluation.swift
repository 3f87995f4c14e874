import Evaluation
import GeoCore
import Geofencing
import Recurrence

/// Scores geofence detection on a feed against its truth (DESIGN.md,
/// "Evaluation"), one setting at a time; pure and thread-safe, so settings
/// and runs go to as many cores as there are.
///
/// ```swift
/// let evaluation = FeedEvaluation(regions: regions, tasks: [], reminderSettings: .init())
/// let truth = evaluation.truth(of: subject)                   // once per feed
/// let detected = evaluation.detect(subject, devices: truth.devices, setting: setting) // per setting
/// var pool = EvaluationPool()
/// pool.add(truth: truth, detection: detected, window: MatchWindow())
/// let scores = pool.scores(window: MatchWindow())
/// ```
public struct FeedEvaluation: Sendable {
    /// The places watched: the bulk regions and the tasks' places.
    public let regions: [Region]
    /// The regions as given, without the tasks' places (the reminder
    /// stage adds those itself).
    private let bulkRegions: [Region]
    private let tasks: [RecurringTask]
    private let reminderSettings: NotificationScheduler.Settings

    /// An evaluation over the bulk `regions` and the places of `tasks`;
    /// with tasks, the location reminders are scored too.
    public init(regions: [Region], tasks: [RecurringTask], reminderSettings: NotificationScheduler.Settings) {
        self.regions = Array(ReminderStage(tasks: tasks, regions: regions, settings: reminderSettings).regions)
        self.tasks = tasks
        self.reminderSettings = reminderSettings
        self.bulkRegions = regions
    }

    /// The truth of a feed, ready to score against.
    public struct Truth: Sendable {
        /// True entries and exits.
        public var events: [ScoredEvent]
        /// Device-hours and kilometres; `nil` for hand-labelled events.
        public var coverage: TruthCoverage?
        /// Each truth device's coverage, in the order of
        /// ``DeviceMatching/truth``; `nil` for hand-labelled events.
        public var deviceCoverage: [TruthCoverage]?
        /// The location reminders the tasks give on the truth track
        /// (grouped by task and place); `nil` without tasks or tracks.
        public var reminders: [ScoredEvent]?
        /// Which truth device each feed device is scored against.
        public var devices: DeviceMatching
    }

    /// What one setting detected on a feed.
    public struct Detection: Sendable {
        /// Detected entries and exits, devices named as in the truth;
        /// those of devices without truth are left out.
        public var events: [ScoredEvent] = []
        /// Location reminders, grouped by task and place.
        public var reminders: [ScoredEvent] = []
        /// The stages' counts.
        public var statistics = ReminderPipeline.Statistics()
    }

    /// The truth of `subject`: true events from its tracks (or its
    /// labelled events), the coverage, and the reference reminders.
    public func truth(of subject: EvaluationSubject) -> Truth {
        switch subject.truth {
        case .events(let events):
            return truth(labelled: events, feedDevices: subject.feedDevices)
        case .tracks(let tracks):
            return truth(of: tracks, feedDevices: subject.feedDevices)
        }
    }

    /// The truth of `tracks` for a feed of `feedDevices` (in order of
    /// first appearance).
    public func truth(of tracks: [TruthTrackPoints], feedDevices: [String?]) -> Truth {
        let finder = trueEventFinder()
        var coverage: [TruthCoverage] = []
        var events: [ScoredEvent] = []
        for track in tracks {
            events += finder.events(along: track.points, device: track.device)
            var device = TruthCoverage()
            device.add(track.points)
            coverage.append(device)
        }
        return Truth(
            events: events, coverage: TruthCoverage(summing: coverage), deviceCoverage: coverage,
            reminders: scoresReminders ? referenceReminders(tracks) : nil,
            devices: DeviceMatching(feed: feedDevices, truth: tracks.map(\.device)))
    }

    /// The truth of hand-labelled `events` for a feed of `feedDevices`.
    public func truth(labelled events: [ScoredEvent], feedDevices: [String?]) -> Truth {
        let devices = DeviceMatching(feed: feedDevices, truth: EvaluationSubject.Truth.events(events).devices)
        return Truth(events: events, coverage: nil, deviceCoverage: nil, reminders: nil, devices: devices)
    }

    /// The truth a ``TruthScanner`` found, for a feed of `feedDevices`.
    public func truth(scanned scanner: inout TruthScanner, feedDevices: [String?]) -> Truth {
        let scanned = scanner.finish()
        return Truth(
            events: scanned.events, coverage: TruthCoverage(summing: scanned.coverage), deviceCoverage: scanned.coverage,
            reminders: scanned.reminders,
            devices: DeviceMatching(feed: feedDevices, truth: scanned.devices))
    }

    /// Whether location reminders are scored too (with tasks).
    var scoresReminders: Bool { !tasks.isEmpty }

    /// The finder of true events at ``regions``.
    func trueEventFinder() -> TrueEventFinder { TrueEventFinder(regions: regions) }

    /// The location reminders of the tasks on the truth: every device's
    /// points in one time order (devices in order of first appearance at
    /// the same instant), through an ideal detector.
    private func referenceReminders(_ tracks: [TruthTrackPoints]) -> [ScoredEvent] {
        var reference = ReferenceReminders(self)
        let points = tracks.flatMap { track in track.points.map { (track.device, $0) } }.enumerated().sorted {
            ($0.1.1.time, $0.0) < ($1.1.1.time, $1.0)
        }.map(\.1)
        for (device, point) in points { reference.push(point, device: device) }
        return reference.finish()
    }

    /// The location reminders the tasks give on the truth, found as its
    /// points are pushed in time order: an ideal detector (no hysteresis,
    /// confirmation or accuracy gate; no entry where a track starts inside,
    /// as for the true events).
    struct ReferenceReminders {
        private var pipeline: ReminderPipeline
        private var events: [ReminderPipeline.Event] = []
        private var reminders: [ScoredEvent] = []

        /// No point yet.
        init(_ evaluation: FeedEvaluation) {
            let ideal = GeofenceSettings(
                hysteresis: 0, confirm: 1, exitConfirm: 1, dwell: nil, reportsCross: true, maxAccuracy: .infinity,
                initialEnter: false)
            pipeline = ReminderPipeline(
                reminders: ReminderStage(
                    tasks: evaluation.tasks, regions: evaluation.bulkRegions, settings: evaluation.reminderSettings),
                geofence: ideal, reorderSeconds: 0)
        }

        /// The next point of the truth, of `device`.
        mutating func push(_ point: TruthPoint, device: String?) {
            // Out of `self` while the pipeline takes its points.
            var reminders: [ScoredEvent] = []
            swap(&reminders, &self.reminders)
            defer { swap(&reminders, &self.reminders) }
            let fix = Fix(time: point.time, coordinate: point.coordinate, device: device)
            pipeline.push(fix, into: &events) { FeedEvaluation.takeReminders(&$0, into: &reminders) }
            FeedEvaluation.takeReminders(&events, into: &reminders)
        }

        /// The reminders, the truth's end reached.
        mutating func finish() -> [ScoredEvent] {
            pipeline.finish(into: &events)
            FeedEvaluation.takeReminders(&events, into: &reminders)
            return reminders
        }
    }

    /// What `setting` detects on `subject`'s feed, device names mapped
    /// to the truth's through `devices`.
    public func detect(_ subject: EvaluationSubject, devices: DeviceMatching, setting: EvaluationSetting) -> Detection {
        var detector = Detector(self, setting: setting)
        detector.push(subject.fixes)
        return detector.finish(devices: devices)
    }

    /// One setting's detection, fed a feed's fixes in delivery order as
    /// they come: what ``detect(_:devices:setting:)`` gives on them all.
    public struct Detector {
        private var pipeline: ReminderPipeline
        private var decimator: IntervalDecimator
        private let scoresReminders: Bool
        private var events: [ReminderPipeline.Event] = []
        /// Detected events, devices named as in the feed.
        private var detection = Detection()

        /// A detector of `setting` for `evaluation`.
        public init(_ evaluation: FeedEvaluation, setting: EvaluationSetting) {
            self.init(pipeline: Self.pipeline(evaluation, setting: setting), setting: setting, evaluation: evaluation)
        }

        private init(pipeline: ReminderPipeline, setting: EvaluationSetting, evaluation: FeedEvaluation) {
            self.pipeline = pipeline
            decimator = IntervalDecimator(seconds: setting.interval)
            scoresReminders = evaluation.scoresReminders
        }

        /// Detectors of `settings` for `evaluation`, in their order, those of
        /// the same padding sharing one index of the regions (a sweep's
        /// settings detect at once: an index each would cost its memory as
        /// many times).
        public static func detectors(_ evaluation: FeedEvaluation, settings: [EvaluationSetting]) -> [Detector] {
            var templates: [Double: ReminderPipeline] = [:]
            return settings.map { setting in
                let template = templates[setting.padding] ?? pipeline(evaluation, setting: setting)
                templates[setting.padding] = template
                let pipeline = template.emptied(
                    geofence: setting.geofence, reorderSeconds: setting.reorderSeconds,
                    monitorLimit: setting.monitorLimit, deviceIdleSeconds: setting.deviceIdleSeconds)
                return Detector(pipeline: pipeline, setting: setting, evaluation: evaluation)
            }
        }

        /// The pipeline of `setting` for `evaluation`.
        private static func pipeline(_ evaluation: FeedEvaluation, setting: EvaluationSetting) -> ReminderPipeline {
            // Without tasks only transitions are scored: no recurrence gate.
            !evaluation.scoresReminders
                ? ReminderPipeline(
                    detecting: RegionTable(evaluation.regions), geofence: setting.geofence,
                    reorderSeconds: setting.reorderSeconds, monitorLimit: setting.monitorLimit, padding: setting.padding,
                    deviceIdleSeconds: setting.deviceIdleSeconds)
                : ReminderPipeline(
                    reminders: ReminderStage(
                        tasks: evaluation.tasks, regions: evaluation.bulkRegions, settings: evaluation.reminderSettings),
                    geofence: setting.geofence, reorderSeconds: setting.reorderSeconds,
                    monitorLimit: setting.monitorLimit, padding: setting.padding,
                    deviceIdleSeconds: setting.deviceIdleSeconds)
        }

        /// Detects on the feed's next fixes.
        public mutating func push<Fixes: Sequence<Fix>>(_ fixes: Fixes) {
            // Out of `self` while the pipeline takes its fixes.
            var detection = Detection()
            swap(&detection, &self.detection)
            defer { swap(&detection, &self.detection) }
            let scoresReminders = scoresReminders
            for fix in fixes where decimator.keeps(fix) {
                // The clock's start may bring a due reminder of every task:
                // taken a few thousand at a time, so that the events of
                // 100 000 (8 MB) are not held, nor their room kept.
                pipeline.push(fix, into: &events) { Self.collect(&$0, into: &detection, scoresReminders: scoresReminders) }
                if !events.isEmpty { Self.collect(&events, into: &detection, scoresReminders: scoresReminders) }
            }
        }

        /// What was detected on the whole feed, devices named as in the
        /// truth through `devices` (those without truth left out).
        public mutating func finish(devices: DeviceMatching) -> Detection {
            pipeline.finish(into: &events)
            // Taken out, so that the events are not held twice.
            var finished = Detection()
            swap(&finished, &detection)
            Self.collect(&events, into: &finished, scoresReminders: scoresReminders)
            finished.events = finished.events.compactMap { event in
                guard case .some(let device) = devices.truthDevice(of: event.device) else { return nil }
                var event = event
                event.device = device
                return event
            }
            finished.statistics = pipeline.statistics
            return finished
        }

        /// Takes `events` into `detection`: its transitions, and its
        /// location reminders when they are scored.
        private static func collect(
            _ events: inout [ReminderPipeline.Event], into detection: inout Detection, scoresReminders: Bool
        ) {
            for event in events {
                guard case .transition(let transition) = event else { continue }
                detection.events += ScoredEvent.detected(from: transition)
            }
            if scoresReminders {
                FeedEvaluation.takeReminders(&events, into: &detection.reminders)
            } else {
                events.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Takes the location reminders of `events` as events keyed by (task,
    /// place), the task in `device` and the place in `region`, and empties
    /// `events`.
    fileprivate static func takeReminders(_ events: inout [ReminderPipeline.Event], into reminders: inout [ScoredEvent]) {
        defer { events.removeAll(keepingCapacity: true) }
        for event in events {
            guard case .reminder(.notify(let notification)) = event, notification.kind == .location else { continue }
            reminders.append(
                ScoredEvent(
                    kind: .enter, time: Timestamp(secondsSince1970: notification.time.timeIntervalSince1970),
                    region: notification.region ?? "", device: notification.taskID))
        }
    }
}
