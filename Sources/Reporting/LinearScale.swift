/// A linear map from data values to pixels, with round tick values: the
/// axes of a report's charts (metrics against a swept parameter, a
/// latency CDF) and the length of a map's scale bar.
public struct LinearScale: Hashable, Sendable {
    /// The data interval.
    public var domain: ClosedRange<Double>
    /// The pixel `domain.lowerBound` maps to.
    public var start: Double
    /// The pixel `domain.upperBound` maps to (may be less than ``start``,
    /// as on a y axis).
    public var end: Double

    /// A scale from `domain` to the pixels from `start` to `end`.
    public init(domain: ClosedRange<Double>, from start: Double, to end: Double) {
        self.domain = domain
        self.start = start
        self.end = end
    }

    /// The pixel position of `value` (outside the domain: extrapolated).
    public func position(_ value: Double) -> Double {
        let width = domain.upperBound - domain.lowerBound
        guard width > 0 else { return (start + end) / 2 }
        return start + (value - domain.lowerBound) / width * (end - start)
    }

    /// Round values inside the domain, about `count` of them, spaced by
    /// 1, 2 or 5 × 10ⁿ.
    public func ticks(count: Int = 5) -> [Double] {
        let step = Self.niceStep(atMost: (domain.upperBound - domain.lowerBound) / Double(max(count, 1)) * 1.5)
        guard step > 0, step.isFinite else { return [domain.lowerBound] }
        // k / (1 / step) for steps below 1: 3 / 5 is 0.6, where 3 × 0.2 is 0.6000000000000001.
        let inverse = step < 1 ? (1 / step).rounded() : nil
        var k = (domain.lowerBound / step).rounded(.up)
        var ticks: [Double] = []
        while ticks.count < 100 {
            let value = inverse.map { k / $0 } ?? k * step
            guard value <= domain.upperBound + step * 1e-9 else { break }
            ticks.append(value == 0 ? 0 : value)
            k += 1
        }
        return ticks
    }

    /// The largest of 1, 2 or 5 × 10ⁿ not above `limit` (> 0), else 0.
    public static func niceStep(atMost limit: Double) -> Double {
        guard limit > 0, limit.isFinite else { return 0 }
        let power = powerOfTen(below: limit)
        for factor in [5.0, 2.0, 1.0] where factor * power <= limit * (1 + 1e-12) { return factor * power }
        return power
    }
}
