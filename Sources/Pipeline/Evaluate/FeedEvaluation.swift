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
        let devices = DeviceMatching(feed: subject.feedDevices, truth: subject.truthDevices)
        switch subject.truth {
        case .events(let events):
            return Truth(events: events, coverage: nil, reminders: nil, devices: devices)
        case .tracks(let tracks):
            let finder = TrueEventFinder(regions: regions)
            var coverage = TruthCoverage()
            var events: [ScoredEvent] = []
            for track in tracks {
                events += finder.events(along: track.points, device: track.device)
                coverage.add(track.points)
            }
            return Truth(
                events: events, coverage: coverage, reminders: tasks.isEmpty ? nil : referenceReminders(tracks),
                devices: devices)
        }
    }

    /// The location reminders of the tasks on the truth: every device's
    /// points in one time order, through an ideal detector (no
    /// hysteresis, confirmation or accuracy gate; no entry where a track
    /// starts inside, as for the true events).
    private func referenceReminders(_ tracks: [TruthTrackPoints]) -> [ScoredEvent] {
        let ideal = GeofenceSettings(
            hysteresis: 0, confirm: 1, exitConfirm: 1, dwell: nil, reportsCross: true, maxAccuracy: .infinity,
            initialEnter: false)
        var pipeline = ReminderPipeline(
            reminders: ReminderStage(tasks: tasks, regions: bulkRegions, settings: reminderSettings), geofence: ideal,
            reorderSeconds: 0)
        let points = tracks.flatMap { track in track.points.map { (track.device, $0) } }.enumerated().sorted {
            ($0.1.1.time, $0.0) < ($1.1.1.time, $1.0)
        }.map(\.1)
        var reminders: [ScoredEvent] = []
        var events: [ReminderPipeline.Event] = []
        for (device, point) in points {
            pipeline.push(Fix(time: point.time, coordinate: point.coordinate, device: device), into: &events)
            Self.collectReminders(events, into: &reminders)
            events.removeAll(keepingCapacity: true)
        }
        pipeline.finish(into: &events)
        Self.collectReminders(events, into: &reminders)
        return reminders
    }

    /// What `setting` detects on `subject`'s feed, device names mapped
    /// to the truth's through `devices`.
    public func detect(_ subject: EvaluationSubject, devices: DeviceMatching, setting: EvaluationSetting) -> Detection {
        // Without tasks only transitions are scored: no recurrence gate.
        var pipeline =
            tasks.isEmpty
            ? ReminderPipeline(
                detecting: RegionTable(regions), geofence: setting.geofence, reorderSeconds: setting.reorderSeconds,
                monitorLimit: setting.monitorLimit, padding: setting.padding, deviceIdleSeconds: setting.deviceIdleSeconds)
            : ReminderPipeline(
                reminders: ReminderStage(tasks: tasks, regions: bulkRegions, settings: reminderSettings),
                geofence: setting.geofence, reorderSeconds: setting.reorderSeconds, monitorLimit: setting.monitorLimit,
                padding: setting.padding, deviceIdleSeconds: setting.deviceIdleSeconds)
        var decimator = IntervalDecimator(seconds: setting.interval)
        var detection = Detection()
        var events: [ReminderPipeline.Event] = []
        for fix in subject.fixes where decimator.keeps(fix) {
            pipeline.push(fix, into: &events)
            if !events.isEmpty { collect(events, devices: devices, into: &detection) }
            events.removeAll(keepingCapacity: true)
        }
        pipeline.finish(into: &events)
        collect(events, devices: devices, into: &detection)
        detection.statistics = pipeline.statistics
        return detection
    }

    private func collect(_ events: [ReminderPipeline.Event], devices: DeviceMatching, into detection: inout Detection) {
        for event in events {
            guard case .transition(let transition) = event else { continue }
            guard case .some(let device) = devices.truthDevice(of: transition.device) else { continue }
            for var scored in ScoredEvent.detected(from: transition) {
                scored.device = device
                detection.events.append(scored)
            }
        }
        if !tasks.isEmpty { Self.collectReminders(events, into: &detection.reminders) }
    }

    /// Location reminders as events keyed by (task, place): the task in
    /// `device`, the place in `region`.
    private static func collectReminders(_ events: [ReminderPipeline.Event], into reminders: inout [ScoredEvent]) {
        for event in events {
            guard case .reminder(.notify(let notification)) = event, notification.kind == .location else { continue }
            reminders.append(
                ScoredEvent(
                    kind: .enter, time: Timestamp(secondsSince1970: notification.time.timeIntervalSince1970),
                    region: notification.region ?? "", device: notification.taskID))
        }
    }
}
