import GeoCore

/// Input quoted in a diagnostic: at most so many characters, then `…`,
/// with control characters escaped (`terminalSafe`), so that a long or
/// binary field neither floods the terminal nor steers it.
enum Excerpt {
    /// The text of `bytes`, cut to `limit` characters (reading at most
    /// four bytes a character).
    static func of(_ bytes: some Collection<UInt8>, limit: Int = 40) -> String {
        let text = String(decoding: bytes.prefix(limit * 4), as: UTF8.self)
        return text.count > limit || bytes.count > limit * 4
            ? String(text.prefix(limit)).terminalSafe + "…" : text.terminalSafe
    }
}
