/// One figure of `bench --feed`'s report, under its JSON name.
///
/// What a baseline gates depends on the kind: absolute rates and times move
/// with the machine's load and are only shown; load-independent figures
/// (counts of work done) and ratios of two rates measured side by side in
/// the same run are compared with a saved baseline.
public struct BenchMetric: Sendable, Equatable {
    /// How a figure behaves on a busy machine.
    public enum Kind: String, Sendable {
        /// A count of the workload's results (fixes, transitions): shown,
        /// and the baseline says when the workload differs.
        case count
        /// A rate, a time or a size: changes with the machine and its load.
        case absolute
        /// Work counted, not timed: the same on any load.
        case loadIndependent = "load-independent"
        /// Two rates measured in the same run, divided: drift cancels out.
        case ratio

        /// Whether `--baseline` compares this kind.
        public var isGatedByBaseline: Bool { self == .loadIndependent || self == .ratio }
    }

    /// The JSON key and the name `--expect` takes (`fixes_per_s`).
    public let name: String
    /// What it is, for people.
    public let label: String
    /// The figure; `nil` where it could not be measured.
    public let value: Double?
    /// How it behaves on a busy machine.
    public let kind: Kind
    /// Whether a larger value is an improvement.
    public let higherIsBetter: Bool
    /// Decimals shown and written.
    public let decimals: Int

    /// A figure named `name`.
    public init(_ name: String, _ label: String, _ value: Double?, kind: Kind, higherIsBetter: Bool, decimals: Int) {
        self.name = name
        self.label = label
        self.value = value
        self.kind = kind
        self.higherIsBetter = higherIsBetter
        self.decimals = decimals
    }

    /// The value rounded to ``decimals`` as JSON text (`null` when absent).
    public var jsonValue: String {
        guard let value, value.isFinite else { return "null" }
        return BenchMetric.format(value, decimals: decimals)
    }

    /// `value` with this figure's decimals.
    public func format(_ value: Double) -> String { BenchMetric.format(value, decimals: decimals) }

    /// `value` for people: rates (`…_per_s`) as `10.9M`, the rest as ``format(_:)``.
    public func display(_ value: Double) -> String {
        name.hasSuffix("_per_s") ? RateText.of(value) : format(value)
    }

    /// `value` with `decimals` decimals, without a trailing `.0` for integers.
    static func format(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if decimals == 0 || rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }
}
