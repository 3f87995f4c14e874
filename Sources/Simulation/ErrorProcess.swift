import GeoCore

/// One device's error as time goes by: the ``ErrorModel`` run forward,
/// epoch after epoch, on its own random streams.
///
/// The Gaussian part (bias and jitter) and the outliers draw from separate
/// streams, so that switching outliers on or off leaves the Gaussian error
/// of every fix unchanged.
struct ErrorProcess {
    /// An error in metres on the local east/north plane.
    struct Offset: Equatable {
        var east: Double
        var north: Double
        static let zero = Offset(east: 0, north: 0)
    }

    private let model: ErrorModel
    private var gaussian: SplitMix64
    private var outlierRandom: SplitMix64
    /// The bias and the time it was last drawn at; `nil` before the first epoch.
    private var bias: (offset: Offset, time: Int64)?
    /// e^(−Δt/τ) and σ_b·√(1 − e^(−2Δt/τ)) for the last Δt, which is
    /// almost always the same.
    private var step: (nanoseconds: Int64, decay: Double, innovation: Double) = (-1, 0, 0)

    init(model: ErrorModel, gaussian: SplitMix64, outliers: SplitMix64) {
        self.model = model
        self.gaussian = gaussian
        self.outlierRandom = outliers
    }

    /// The error at `nanoseconds` (since 1970); times must not decrease.
    @inline(__always)
    mutating func offset(at nanoseconds: Int64) -> Offset {
        if model.isErrorFree { return .zero }
        let biasNow = nextBias(at: nanoseconds)
        let jitter = gaussian.normalPair()
        var error = Offset(east: biasNow.east + model.noise * jitter.0, north: biasNow.north + model.noise * jitter.1)
        if model.outliers.probability > 0, outlierRandom.chance(model.outliers.probability) {
            let direction = _sinCos(outlierRandom.uniform(0, 2 * .pi))
            error.east += model.outliers.distance * direction.sin
            error.north += model.outliers.distance * direction.cos
        }
        return error
    }

    @inline(__always)
    private mutating func nextBias(at nanoseconds: Int64) -> Offset {
        let normal = gaussian.normalPair()
        guard let (previous, time) = bias else {
            let first = Offset(east: model.bias * normal.0, north: model.bias * normal.1)
            bias = (first, nanoseconds)
            return first
        }
        let elapsed = nanoseconds - time
        if elapsed != step.nanoseconds {
            let decay = _exp(-Double(elapsed) / 1e9 / model.biasTime)
            step = (elapsed, decay, model.bias * (1 - decay * decay).squareRoot())
        }
        let next = Offset(
            east: previous.east * step.decay + step.innovation * normal.0,
            north: previous.north * step.decay + step.innovation * normal.1)
        bias = (next, nanoseconds)
        return next
    }
}

extension Coordinate {
    /// This coordinate moved by `offset` metres on the local east/north
    /// plane (a flat-Earth step, exact to millimetres over kilometres away
    /// from the poles; the latitude is clamped to ±90°, the longitude wrapped).
    @inline(__always)
    func moved(by offset: ErrorProcess.Offset) -> Coordinate {
        let latitude = max(-90, min(90, self.latitude + offset.north / Geodesy.metresPerDegree))
        let metresPerDegreeEast = Geodesy.metresPerDegree * _cos(self.latitude * .pi / 180)
        let longitude = Geodesy.wrapLongitude(self.longitude + offset.east / metresPerDegreeEast)
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}
