import Foundation

/// A place's radius as `place list` and `task show` print it: whole
/// metres, and past a billion (a file's 1e308) three significant digits
/// rather than three hundred.
enum RadiusText {
    /// `150`, `1e+308`.
    static func metres(_ radius: Double) -> String { String(format: radius < 1e9 ? "%.0f" : "%.3g", radius) }
}
