import GeoCore

/// The instants anchor + k · step (k an integer) that fall in
/// [lower, upper], in increasing order, each an exact multiple of the step
/// from the anchor (never accumulated, so a long feed does not drift).
struct TimeGrid: IteratorProtocol {
    private let anchor: Int64
    private let step: Int64
    private let upper: Int64
    private var index: Int64
    /// The fraction digits that show every instant of the grid exactly.
    let fractionDigits: UInt8

    /// The grid through `anchor` with `step` nanoseconds (at least 1),
    /// clipped to [lower, upper].
    init(anchor: Int64, step: Int64, lower: Int64, upper: Int64) {
        precondition(step > 0, "a time grid needs a positive step")
        self.anchor = anchor
        self.step = step
        self.upper = upper
        let stepsToLower = lower > anchor ? (lower - anchor + step - 1) / step : 0
        index = stepsToLower
        fractionDigits = max(Self.fractionDigits(of: anchor), Self.fractionDigits(of: step))
    }

    /// The next instant, in nanoseconds since 1970.
    mutating func next() -> Int64? {
        let time = anchor + index * step
        guard time <= upper else { return nil }
        index += 1
        return time
    }

    /// How many fractional-second digits `nanoseconds` needs to be shown exactly (0…9).
    static func fractionDigits(of nanoseconds: Int64) -> UInt8 {
        var fraction = nanoseconds % 1_000_000_000
        if fraction == 0 { return 0 }
        var digits: UInt8 = 9
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        return digits
    }
}
