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

    /// The string with every control character (C0, DEL, C1) written as
    /// `\u{1b}`, so a title, device or place name from a file or a feed
    /// cannot move the cursor, clear the screen or set the window title.
    public var terminalSafe: String {
        guard unicodeScalars.contains(where: Self.isControl) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            out += Self.isControl(scalar) ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }
        return out
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
