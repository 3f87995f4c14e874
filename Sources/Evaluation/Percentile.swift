/// Percentiles by linear interpolation between closest ranks: for `n`
/// sorted values and p in 0…1, the value at rank h = (n − 1)·p, between
/// the values at ⌊h⌋ and ⌈h⌉ in proportion (numpy's default "linear",
/// Excel's PERCENTILE.INC). `nil` for no values.
public func percentile(_ p: Double, ofSorted values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let rank = Double(values.count - 1) * min(max(p, 0), 1)
    let lower = Int(rank.rounded(.down))
    let upper = min(lower + 1, values.count - 1)
    return values[lower] + (rank - Double(lower)) * (values[upper] - values[lower])
}
