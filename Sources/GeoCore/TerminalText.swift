extension String {
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
