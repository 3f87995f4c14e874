extension String {
    /// The string padded with spaces to `width` characters (never cut).
    public func padded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    /// The string cut to `width` characters with an ellipsis, then padded.
    public func fitted(_ width: Int) -> String {
        count > width ? String(prefix(width - 1)) + "…" : padded(width)
    }
}
