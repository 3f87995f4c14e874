import GeoCore

/// A geofence transition of one device at one region, in tile38's words.
public struct Transition: Hashable, Sendable {
    /// What happened.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// outside → inside, after `confirm` consecutive inside fixes.
        case enter
        /// inside → outside, once clearly beyond the fence (accuracy and
        /// hysteresis) for `exitConfirm` consecutive fixes.
        case exit
        /// Inside for the dwell time since the entry.
        case dwell
        /// The segment between two fixes passed through a region neither
        /// fix was in.
        case cross
    }

    /// What happened.
    public var kind: Kind
    /// When: the deciding fix's time, or for `cross` the interpolated time
    /// of closest approach.
    public var time: Timestamp
    /// The region's key in the detector's region list.
    public var regionKey: Int
    /// The region's id.
    public var region: String
    /// The device (`nil` for a feed's single unnamed device).
    public var device: String?
    /// The distance from the region (centre of a circle, boundary of an
    /// area) at that moment, in metres.
    public var distance: Double

    /// Creates a transition.
    public init(kind: Kind, time: Timestamp, regionKey: Int, region: String, device: String?, distance: Double) {
        self.kind = kind
        self.time = time
        self.regionKey = regionKey
        self.region = region
        self.device = device
        self.distance = distance
    }
}

/// The geofence rules of DESIGN.md, with their defaults.
public struct GeofenceSettings: Hashable, Sendable {
    /// Metres beyond the fence (after accuracy) needed to exit; `nil` means
    /// max(10 m, 10 % of the region's radius).
    public var hysteresis: Double?
    /// Consecutive inside fixes needed to enter (≥ 1).
    public var confirm: Int
    /// Consecutive clearly-outside fixes needed to exit (≥ 1).
    public var exitConfirm: Int
    /// Seconds inside after the entry before a `dwell`; `nil` turns dwell off.
    public var dwell: Double?
    /// Whether to report `cross` transitions.
    public var reportsCross: Bool
    /// Fixes with a horizontal accuracy worse than this many metres change
    /// no state (they are counted).
    public var maxAccuracy: Double
    /// Whether a device's first fix inside a region counts as an entry.
    public var initialEnter: Bool

    /// The defaults: confirm 1, exit-confirm 1, default hysteresis, no
    /// dwell, cross on, max accuracy 100 m, initial entry on.
    public init(
        hysteresis: Double? = nil, confirm: Int = 1, exitConfirm: Int = 1, dwell: Double? = nil,
        reportsCross: Bool = true, maxAccuracy: Double = 100, initialEnter: Bool = true
    ) {
        self.hysteresis = hysteresis
        self.confirm = max(1, confirm)
        self.exitConfirm = max(1, exitConfirm)
        self.dwell = dwell
        self.reportsCross = reportsCross
        self.maxAccuracy = maxAccuracy
        self.initialEnter = initialEnter
    }

    /// The hysteresis for a region: the setting, else max(10 m, 10 % of its
    /// characteristic radius).
    public func hysteresis(for shape: Shape) -> Double {
        hysteresis ?? max(10, 0.1 * shape.characteristicRadius)
    }
}

/// What the detector did with the fixes it was given.
public struct DetectorStatistics: Hashable, Sendable {
    /// Fixes that were evaluated.
    public var accepted = 0
    /// Fixes ignored because their accuracy was worse than the limit.
    public var inaccurate = 0
    /// Fixes ignored because their coordinate was invalid.
    public var invalid = 0
    /// Fixes ignored because they were older than the device's last fix.
    public var outOfOrder = 0

    /// Empty statistics.
    public init() {}

    /// Adds the counts of `other` (another detector that took other devices).
    public mutating func add(_ other: DetectorStatistics) {
        accepted += other.accepted
        inaccurate += other.inaccurate
        invalid += other.invalid
        outOfOrder += other.outOfOrder
    }
}

/// What the detector did with one fix.
public enum FixDisposition: Hashable, Sendable {
    /// The fix was evaluated: it moved its device's state on.
    case evaluated
    /// The fix changed nothing, for this reason.
    case ignored(IgnoredFixReason)
}

/// Why the detector ignored a fix.
public enum IgnoredFixReason: String, Hashable, Sendable, CaseIterable {
    /// Its coordinate was not a valid latitude and longitude.
    case invalid
    /// Its horizontal accuracy was worse than the accuracy gate allows.
    case inaccurate
    /// It was older than its device's last evaluated fix.
    case outOfOrder = "out-of-order"
}
