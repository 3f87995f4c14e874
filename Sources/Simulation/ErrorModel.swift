import GeoCore

/// The GNSS position error of one device, in metres on a local east/north
/// plane: a slowly wandering bias, white jitter on top, and now and then an
/// outlier.
///
/// Each axis (east, north) carries, independently:
/// - a **bias** b: a first-order Gauss–Markov process with standard deviation
///   ``bias`` (σ_b) and time constant ``biasTime`` (τ). It is exactly
///   discretised for any step Δt, b′ = b·e^(−Δt/τ) + σ_b·√(1 − e^(−2Δt/τ))·N(0, 1),
///   and its first value is drawn from the stationary N(0, σ_b²), so the
///   error has the same statistics from the first fix on. Two fixes Δt apart
///   have errors correlated by σ_b²·e^(−Δt/τ) / σ_total²;
/// - white **jitter** N(0, σ_w²), σ_w = ``noise``, fresh for every fix.
///
/// Per axis σ_total = √(σ_w² + σ_b²) (``deviation``). With probability
/// ``Outliers-swift.struct/probability`` a fix is also displaced by
/// ``Outliers-swift.struct/distance`` metres in a uniformly random direction,
/// added to the modelled error, while the reported accuracy stays as it is:
/// the over-confident fix of multipath in a street canyon.
///
/// Presets for typical surroundings are in ``Environment``; the flags
/// `--noise`, `--bias`, `--bias-time` and `--outliers` override them one by
/// one with ``overriding(noise:bias:biasTime:outliers:)``.
public struct ErrorModel: Hashable, Sendable {
    /// Over-confident fixes: how often, and how far off.
    public struct Outliers: Hashable, Sendable {
        /// The chance that a fix is an outlier, 0…1.
        public let probability: Double
        /// How far an outlier is displaced, in metres.
        public let distance: Double

        /// No outliers.
        public static let off = Outliers(unchecked: 0, 0)

        /// Outliers with probability `probability` per fix, displaced by
        /// `distance` metres (`--outliers p:D`).
        /// - Throws: ``SimulationError/invalidValue(_:_:)`` naming
        ///   `--outliers` for p outside 0…1 or a negative D.
        public init(probability: Double, distance: Double) throws(SimulationError) {
            guard (0...1).contains(probability) else { throw .invalidValue("--outliers", "p must be from 0 to 1") }
            guard distance >= 0, distance <= ErrorModel.farthest else {
                throw .invalidValue("--outliers", "D must be from 0 to 20 000 000 metres (half the Earth's circumference)")
            }
            self.init(unchecked: probability, distance)
        }

        init(unchecked probability: Double, _ distance: Double) {
            self.probability = probability
            self.distance = distance
        }
    }

    /// σ_w: the standard deviation of the white jitter per axis, metres.
    public let noise: Double
    /// σ_b: the standard deviation of the correlated bias per axis, metres.
    public let bias: Double
    /// τ: the bias's time constant in seconds (its correlation falls to
    /// 1/e after τ).
    public let biasTime: Double
    /// The outliers added to the modelled error.
    public let outliers: Outliers

    /// The time constant when none is given: 60 s.
    public static let defaultBiasTime = 60.0

    /// The largest σ_w or σ_b, metres: a quarter of the Earth's
    /// circumference, past which a fix could be anywhere (and σ², past
    /// 1e154, is no longer a number).
    public static let largestDeviation = 10_000_000.0

    /// The farthest an outlier is displaced, metres: half the Earth's
    /// circumference, the farthest one point is from another.
    public static let farthest = 20_000_000.0

    /// An error model from its parameters.
    /// - Throws: ``SimulationError/invalidValue(_:_:)`` naming the flag:
    ///   `--noise` or `--bias` for a σ that is negative or past
    ///   ``largestDeviation``, `--bias-time` for τ ≤ 0.
    public init(
        noise: Double = 0, bias: Double = 0, biasTime: Double = defaultBiasTime, outliers: Outliers = .off
    ) throws(SimulationError) {
        let range = "must be from 0 to 10 000 000 metres (a quarter of the Earth's circumference)"
        guard noise >= 0, noise <= Self.largestDeviation else { throw .invalidValue("--noise", range) }
        guard bias >= 0, bias <= Self.largestDeviation else { throw .invalidValue("--bias", range) }
        guard biasTime > 0, biasTime.isFinite else { throw .invalidValue("--bias-time", "must be more than 0 seconds") }
        self.init(unchecked: noise, bias, biasTime, outliers)
    }

    init(unchecked noise: Double, _ bias: Double, _ biasTime: Double, _ outliers: Outliers) {
        self.noise = noise
        self.bias = bias
        self.biasTime = biasTime
        self.outliers = outliers
    }

    /// This model with the given values replaced (`nil` keeps the current
    /// one): how `--noise`, `--bias`, `--bias-time` and `--outliers` act on
    /// an `--environment` preset.
    /// - Throws: as ``init(noise:bias:biasTime:outliers:)``.
    public func overriding(
        noise: Double? = nil, bias: Double? = nil, biasTime: Double? = nil, outliers: Outliers? = nil
    ) throws(SimulationError) -> ErrorModel {
        try ErrorModel(
            noise: noise ?? self.noise, bias: bias ?? self.bias, biasTime: biasTime ?? self.biasTime,
            outliers: outliers ?? self.outliers)
    }

    /// σ_total = √(σ_w² + σ_b²): the standard deviation of the error per
    /// axis, outliers aside.
    public var deviation: Double { (noise * noise + bias * bias).squareRoot() }

    /// The factor from σ_total to the reported accuracy (Android's
    /// convention for the 68 % radius).
    public static let accuracyPerDeviation = 1.515

    /// The horizontal accuracy each fix reports: 1.515 · σ_total, from the
    /// values in force (not a rounded table column); `nil` when σ_total is
    /// 0, so that an error-free feed claims nothing it does not know
    /// (a decoder then treats the accuracy as unknown, which the geofence
    /// rules count as 0 — what an exact position deserves).
    public var accuracy: Double? {
        let deviation = deviation
        return deviation > 0 ? Self.accuracyPerDeviation * deviation : nil
    }

    /// The HDOP each fix reports: ``accuracy`` / 5 m (``Fix/metresPerHDOP``,
    /// the factor the decoders assume); `nil` when the accuracy is.
    public var hdop: Double? { accuracy.map { $0 / Fix.metresPerHDOP } }

    /// Whether every fix is exactly where the device is.
    var isErrorFree: Bool { deviation == 0 && (outliers.probability == 0 || outliers.distance == 0) }
}
