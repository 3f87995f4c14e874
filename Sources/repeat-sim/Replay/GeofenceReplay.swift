import GeoCore
import Geofencing
import Pipeline

/// The geofence-only replay: reorder buffer → detector → transition lines.
struct GeofenceReplay {
    private var buffer: ReorderBuffer
    private var detector: TransitionDetector
    private let json: Bool
    /// Buffered standard output.
    var output = ByteOutput.standardOutput
    private var transitions = 0
    private var untimed = 0
    private var late = 0

    init(regions: [Region], settings: GeofenceSettings, reorderSeconds: Double, json: Bool) {
        buffer = ReorderBuffer(windowSeconds: reorderSeconds)
        detector = TransitionDetector(regions: regions, settings: settings)
        self.json = json
        if !json { output.write(Self.header) }
    }

    /// Takes one decoded fix of `feed`.
    mutating func push(_ fix: Fix, feed: String) {
        guard let time = fix.time else {
            untimed += 1
            if untimed <= 5 { Diagnostics.warn("\(feed): a fix without time has no place on the clock; skipped") }
            return
        }
        for released in buffer.push(fix) { handle(released, feed: feed, time: time) }
    }

    /// Releases what the reorder buffer still holds.
    mutating func finish() {
        for released in buffer.finish() { handle(released, feed: "", time: nil) }
        output.flush()
    }

    private mutating func handle(_ released: ReorderBuffer.Output, feed: String, time: Timestamp?) {
        switch released {
        case .late(let fix):
            late += 1
            if late <= 5 {
                Diagnostics.warn("\(feed): fix at \(RFC3339.format(fix.time!)) is older than the reorder window; dropped")
            }
        case .fix(let fix):
            for transition in detector.process(fix) { write(transition) }
        }
    }

    private mutating func write(_ transition: Transition) {
        transitions += 1
        let time = RFC3339.format(transition.time)
        let distance = (transition.distance * 100).rounded() / 100
        if json {
            var line = "{\"kind\":\"\(transition.kind.rawValue)\",\"time\":\"\(time)\",\"region\":"
            line += JSONLine.quoted(transition.region)
            if let device = transition.device { line += ",\"device\":" + JSONLine.quoted(device) }
            line += ",\"distance_m\":\(distance)}\n"
            output.write(line)
        } else {
            output.write(
                time.padding(toLength: 26, withPad: " ", startingAt: 0) + transition.kind.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
                    + transition.region.padding(toLength: 24, withPad: " ", startingAt: 0) + " "
                    + (transition.device ?? "-").padding(toLength: 16, withPad: " ", startingAt: 0) + " \(distance) m\n")
        }
        output.flushIfFull()
    }

    /// The table header.
    static let header = "time                      kind   region                   device           distance\n"

    /// The summary line for stderr.
    var summary: String {
        let s = detector.statistics
        return "replay: \(s.accepted) fixes evaluated, \(transitions) transitions; ignored: \(s.inaccurate) inaccurate, "
            + "\(s.invalid) invalid, \(untimed + s.untimed) without time, \(late + s.outOfOrder) late"
    }
}
