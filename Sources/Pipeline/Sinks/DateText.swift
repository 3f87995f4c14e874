import Foundation
import GeoCore
import Recurrence

/// The UTC RFC 3339 text of the instant written last, kept for the next:
/// a reminder's time, due time and window start are often one instant,
/// and reminders come in runs at one instant.
struct DateText {
    private var date: Date?
    /// The text, in its first ``length`` bytes.
    private(set) var bytes = SIMD32<UInt8>()
    private(set) var length = 0

    /// Whether `date` is in the range written here
    /// (``RFC3339Text/coversFast(_:)``); lines write other dates through
    /// ``RFC3339Text/format(_:)``.
    static func covers(_ date: Date) -> Bool { RFC3339Text.coversFast(date) }

    /// Makes the text `date`'s, which ``covers(_:)`` must hold, unless it is already.
    mutating func update(to date: Date) {
        guard date != self.date else { return }
        length = withUnsafeMutableBytes(of: &bytes) { RFC3339.write(RFC3339Text.timestamp(date), to: $0) }
        self.date = date
    }

    /// Calls `body` with the text.
    func withText<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeBytes(of: bytes) { body(UnsafeRawBufferPointer(rebasing: $0[..<length])) }
    }
}
