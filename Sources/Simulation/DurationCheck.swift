/// The longest duration a flag may give: 10⁹ s (31 years), so that every
/// time stays within ``GeoCore/Timestamp``'s range.
let longestDuration = 1e9

/// Checks the duration `seconds` that `flag` gave: finite, at most
/// ``longestDuration``, and positive (or 0 as well, when `zeroAllowed`).
/// A positive duration must also be at least a nanosecond, the clock's step.
func checkDuration(_ seconds: Double, _ flag: String, zeroAllowed: Bool) throws(SimulationError) {
    if zeroAllowed {
        guard seconds >= 0 else { throw .invalidValue(flag, "must be 0 or more seconds") }
    } else {
        guard (seconds * 1e9).rounded() >= 1 else { throw .invalidValue(flag, "must be more than 0 seconds") }
    }
    guard seconds <= longestDuration else { throw .invalidValue(flag, "must be at most 1000000000 seconds (31 years)") }
}
