import Foundation

/// 95 % confidence intervals for the means `evaluate --runs` reports.
public enum ConfidenceInterval {
    /// The Wilson score interval of a proportion, `successes` of `trials`
    /// (good near 0 and 1, unlike the normal approximation); `nil` without
    /// trials.
    public static func wilson(successes: Int, trials: Int) -> ClosedRange<Double>? {
        guard trials > 0 else { return nil }
        let z = 1.959_963_985
        let n = Double(trials)
        let p = Double(successes) / n
        let centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        let half = z / (1 + z * z / n) * (p * (1 - p) / n + z * z / (4 * n * n)).squareRoot()
        return max(0, centre - half)...min(1, centre + half)
    }

    /// The mean of `values` and Student's t interval around it; `nil` for
    /// fewer than two values.
    public static func mean(of values: [Double]) -> (mean: Double, interval: ClosedRange<Double>)? {
        guard values.count > 1 else { return nil }
        let n = Double(values.count)
        let mean = values.reduce(0, +) / n
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
        let half = studentT975(degreesOfFreedom: values.count - 1) * (variance / n).squareRoot()
        return (mean, (mean - half)...(mean + half))
    }

    /// The 97.5 % quantile of Student's t distribution.
    static func studentT975(degreesOfFreedom: Int) -> Double {
        let table = [
            12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
            2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
        ]
        if degreesOfFreedom <= table.count { return table[max(degreesOfFreedom, 1) - 1] }
        // Beyond 30 degrees of freedom: the normal quantile with the first
        // Cornish–Fisher correction (within 0.001 of the exact value).
        let z = 1.959_963_985
        return z + (z * z * z + z) / (4 * Double(degreesOfFreedom))
    }
}
