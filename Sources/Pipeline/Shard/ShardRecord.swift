import GeoCore
import Geofencing

/// One JSON line of a `--shard I/N` run: the header, an outcome of the
/// shard's devices, or the closing counts. `repeat-sim merge` reads them.
///
/// Only what the tasks' side needs is written: fixes that made
/// transitions or met the accuracy gate, fixes dropped or without time,
/// and the fixes whose time made a due reminder fall on the shard's own
/// clock (see ``ShardWriter``). Times keep their nanoseconds and digits,
/// numbers their exact value, so that the merge prints the same bytes.
public struct ShardLine: Codable, Sendable {
    /// The first line.
    public var header: ShardHeader?
    /// An outcome.
    public var item: ShardItem?
    /// The last line.
    public var summary: ShardSummary?

    /// A line holding one of the three.
    public init(header: ShardHeader? = nil, item: ShardItem? = nil, summary: ShardSummary? = nil) {
        self.header = header
        self.item = item
        self.summary = summary
    }
}

/// What a shard's run was: enough for the merge to check the shards
/// belong together and to set up the same tasks' side and output.
public struct ShardHeader: Codable, Sendable, Equatable {
    /// The format of these lines: 2 counts an item's input within its
    /// feed (1 counted it over the whole run).
    public static let currentVersion = 2

    /// The format of the lines (``currentVersion``).
    public var version: Int
    /// The shard, from 0.
    public var index: Int
    /// The number of shards.
    public var count: Int
    /// The command's arguments after the program name, `--shard` included.
    public var arguments: [String]
    /// The working directory the arguments' paths are relative to.
    public var directory: String

    /// A header.
    public init(index: Int, count: Int, arguments: [String], directory: String) {
        version = Self.currentVersion
        self.index = index
        self.count = count
        self.arguments = arguments
        self.directory = directory
    }
}

/// One outcome of a shard's devices, with its place in the run.
public struct ShardItem: Codable, Sendable, Equatable {
    /// What happened to the fix.
    public enum Outcome: String, Codable, Sendable {
        /// Released in time order (and evaluated, or turned away by the
        /// accuracy gate, or ignored as invalid).
        case released
        /// Older than its device's reorder window: dropped.
        case late
        /// Without time.
        case untimed
    }

    /// The input (fix or epoch without a fix) that released it, counted
    /// within its ``feed`` from 0 (so that a shard can leave out a feed
    /// none of whose devices are its own); `nil` in the run's finishing, when the
    /// reorder buffer hands on what it held device by device.
    public var input: Int?
    /// The device being finished, when ``input`` is `nil`.
    public var finishing: String?
    /// The feed, by position among the run's feeds.
    public var feed: Int
    /// What happened.
    public var outcome: Outcome
    /// The fix's time: nanoseconds since 1970 and fraction digits.
    public var time: [Int64]?
    /// Latitude and longitude.
    public var position: [Double]
    /// The fix's device.
    public var device: String?
    /// The transitions the fix made.
    public var transitions: [ShardTransition]?
    /// The regions an inaccurate fix would have entered.
    public var inaccurate: [Int]?
}

/// One transition as the merge needs it (its region's name comes from the
/// key, its device from the fix).
public struct ShardTransition: Codable, Sendable, Equatable {
    /// enter, exit, dwell or cross.
    public var kind: Transition.Kind
    /// Nanoseconds since 1970 and fraction digits.
    public var time: [Int64]
    /// The region's key.
    public var region: Int
    /// Metres, as reported.
    public var distance: Double
    /// The device's monitor limit kept the region from being watched.
    public var unmonitored: Bool?
}

/// A shard's counts at its end.
public struct ShardSummary: Codable, Sendable {
    /// The detector's counts of accepted and ignored fixes.
    public var accepted: Int
    /// Fixes less accurate than the limit.
    public var inaccurate: Int
    /// Fixes with an invalid coordinate.
    public var invalid: Int
    /// Fixes older than their device's last.
    public var outOfOrder: Int
    /// The devices evaluated.
    public var devices: Int
    /// How often devices chose their monitored regions.
    public var monitorRefreshes: Int
    /// Inputs that could not be read, with the reason.
    public var unreadable: [String]
    /// Whether `--strict` stopped the run at a malformed record.
    public var stoppedAtMalformedRecord: Bool

    /// Every count, for their checks and sum.
    var counts: [Int] { [accepted, inaccurate, invalid, outOfOrder, devices, monitorRefreshes] }
}

extension Transition.Kind: Codable {}

extension Timestamp {
    /// The two numbers a shard line keeps of a time.
    var shardValue: [Int64] { [nanoseconds, Int64(fractionDigits)] }

    /// The time a shard line kept; `nil` for a malformed value.
    init?(shardValue value: [Int64]) {
        guard value.count == 2, (0...9).contains(value[1]) else { return nil }
        self.init(nanoseconds: value[0], fractionDigits: UInt8(value[1]))
    }
}
