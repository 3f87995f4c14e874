import GeoCore

/// The settings of a sweep (`--sweep NAME=V1,V2,…`, repeatable): their
/// cross product, the first sweep varying slowest, like nested loops in the
/// order given.
public struct SweepGrid: Hashable, Sendable {
    /// One swept parameter and its values, as written.
    public struct Axis: Hashable, Sendable {
        /// The parameter's name (`hysteresis`, `confirm`, …).
        public var name: String
        /// Its values, in the order given.
        public var values: [String]
    }

    /// The names `evaluate` can sweep.
    public static let names = [
        "hysteresis", "confirm", "exit-confirm", "dwell", "max-accuracy", "monitor-limit", "cross", "pad", "interval",
    ]

    /// The axes, in the order given.
    public let axes: [Axis]

    /// The most settings a grid may have: every setting detects on every
    /// fix, and keeps its state for every device, so ten thousand already
    /// take hours on a long feed.
    public static let maximumSettings = 10_000

    /// A grid from `--sweep` texts (`confirm=1,2`).
    /// - Throws: ``SweepError`` naming the text: no `=`, an unknown name
    ///   (with the nearest valid one), no value, a name swept twice, or
    ///   more than ``maximumSettings`` settings.
    public init(parsing texts: [String]) throws(SweepError) {
        var axes: [Axis] = []
        for text in texts {
            guard let equals = text.firstIndex(of: "=") else { throw .malformed(text) }
            let name = String(text[..<equals])
            guard Self.names.contains(name) else {
                throw .unknownName(name, suggestion: Spelling.likely(name, in: Self.names))
            }
            guard !axes.contains(where: { $0.name == name }) else { throw .repeated(name) }
            let values = text[text.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false).map(
                String.init)
            guard !values.isEmpty, !values.contains(where: \.isEmpty) else { throw .noValue(name) }
            axes.append(Axis(name: name, values: values))
        }
        let counts = axes.map(\.values.count)
        // Counted in doubles: 9 axes of 200 000 values each pass 2^63.
        guard counts.reduce(1.0, { $0 * Double($1) }) <= Double(Self.maximumSettings) else {
            throw .tooManySettings(counts)
        }
        self.axes = axes
    }

    /// Every setting: one value per axis, the last axis varying fastest;
    /// a grid without axes has one empty setting.
    public var settings: [[(name: String, value: String)]] {
        axes.reduce([[]]) { partial, axis in
            partial.flatMap { prefix in axis.values.map { prefix + [(axis.name, $0)] } }
        }
    }
}

/// Why a `--sweep` cannot be read.
public enum SweepError: Error, Equatable, CustomStringConvertible {
    /// No `=` in the text.
    case malformed(String)
    /// Not a name `evaluate` sweeps; the one it likely meant, if any.
    case unknownName(String, suggestion: String?)
    /// A name with no value, or an empty one.
    case noValue(String)
    /// The same name swept twice.
    case repeated(String)
    /// More settings than ``SweepGrid/maximumSettings``: each axis's count of values.
    case tooManySettings([Int])

    public var description: String {
        switch self {
        case .malformed(let text): return "--sweep '\(text)' is not NAME=V1,V2,… (e.g. confirm=1,2)"
        case .unknownName(let name, let suggestion):
            let meant = suggestion.map { "; did you mean '\($0)'?" } ?? ""
            return "--sweep cannot vary '\(name)'\(meant) (\(SweepGrid.names.joined(separator: ", ")))"
        case .noValue(let name): return "--sweep \(name)= needs values, e.g. \(name)=1,2"
        case .repeated(let name): return "--sweep \(name) is given twice; put all its values in one --sweep"
        case .tooManySettings(let counts):
            let product = counts.map(String.init).joined(separator: " × ")
            return "--sweep makes \(product) settings, more than 10 000: sweep fewer values, or split the sweep over several runs"
        }
    }
}
