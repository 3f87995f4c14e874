/// What `generate` wrote, for stderr and the manifest.
public struct GenerateSummary: Sendable {
    /// One file written.
    public struct Output: Sendable {
        /// `feed` or `truth`.
        public var role: String
        /// The path (`-` for standard output, the link for a pty).
        public var path: String
        /// Bytes written.
        public var bytes: Int
        /// SHA-256 of the bytes, hexadecimal, when a manifest was asked for.
        public var sha256: String?
    }

    /// Fixes delivered (valid and invalid epochs).
    public var fixes = 0
    /// Of those, invalid epochs (cold start).
    public var invalid = 0
    /// Truth points written.
    public var truthPoints = 0
    /// The files written, in order.
    public var outputs: [Output] = []
    /// Wall-clock seconds.
    public var seconds = 0.0

    /// `generate: 3600 fixes (0 invalid) from 1 device …` for stderr.
    public func line(devices: Int) -> String {
        var text = "generate: \(fixes) fixes (\(invalid) invalid) from \(devices) device\(devices == 1 ? "" : "s")"
        if truthPoints > 0 { text += ", \(truthPoints) truth points" }
        text += "; " + ElapsedText.of(seconds)
        if seconds >= 0.05, fixes > 0 { text += " (\(RateText.of(Double(fixes) / seconds)) fixes/s)" }
        return text
    }
}
