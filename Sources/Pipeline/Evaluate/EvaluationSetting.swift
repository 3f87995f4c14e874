import Geofencing

/// The detector settings of one row of an evaluation: the geofence rules,
/// the platform's monitor limit, and the two knobs only `evaluate` has —
/// `pad` (metres added to every circle for detection only) and `interval`
/// (decimation of the feed as delivered, before any stage).
public struct EvaluationSetting: Sendable {
    /// A swept parameter and its value, for the JSON `setting` object and
    /// the table.
    public struct Parameter: Hashable, Sendable {
        /// The value of a parameter.
        public enum Value: Hashable, Sendable {
            /// A number (metres, a count, seconds).
            case number(Double)
            /// A word (`on`, `off`).
            case word(String)
        }

        /// The sweep's name (`hysteresis`, `interval`, …).
        public var name: String
        /// Its value in this setting.
        public var value: Value

        /// A parameter.
        public init(name: String, value: Value) {
            self.name = name
            self.value = value
        }
    }

    /// The geofence rules.
    public var geofence: GeofenceSettings
    /// The reorder window in seconds.
    public var reorderSeconds: Double
    /// At most this many regions monitored per device; `nil`: all.
    public var monitorLimit: Int?
    /// The feed time after which a silent device is set aside (`--device-idle`).
    public var deviceIdleSeconds = 3600.0
    /// Metres added to every circle's radius for detection.
    public var padding = 0.0
    /// A device's fix is kept when it is at least this many seconds after
    /// its last kept fix; 0 keeps every fix.
    public var interval = 0.0
    /// The swept parameters, in the order of the sweeps.
    public var parameters: [Parameter] = []

    /// A setting with the given rules and no padding or decimation.
    public init(geofence: GeofenceSettings, reorderSeconds: Double, monitorLimit: Int?) {
        self.geofence = geofence
        self.reorderSeconds = reorderSeconds
        self.monitorLimit = monitorLimit
    }
}
