import Reporting

/// A rate as a person reads it, three significant digits with a k or M
/// suffix: `10.9M`, `1.17M`, `352k`, `3.22k`, `950` — the text before a
/// unit such as `positions/s`. JSON output keeps the plain number.
public enum RateText {
    /// The text of `perSecond`.
    public static func of(_ perSecond: Double) -> String {
        guard perSecond.isFinite, perSecond >= 0 else { return "–" }
        for (scale, suffix) in [(1e9, "G"), (1e6, "M"), (1e3, "k")] where perSecond >= scale * 0.9995 {
            return significant(perSecond / scale) + suffix
        }
        return significant(perSecond)
    }

    /// Three significant digits, at most two decimals, no trailing zeros.
    private static func significant(_ value: Double) -> String {
        Format.number(value, decimals: value >= 99.95 ? 0 : value >= 9.995 ? 1 : 2)
    }
}
