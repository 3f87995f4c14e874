import GeoCore

extension String {
    /// The string padded with spaces to `width` characters (never cut).
    public func padded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    /// The string cut to `width` characters with an ellipsis, then padded;
    /// control characters escaped first (``terminalSafe``).
    public func fitted(_ width: Int) -> String {
        let safe = terminalSafe
        return safe.count > width ? String(safe.prefix(width - 1)) + "…" : safe.padded(width)
    }
}
