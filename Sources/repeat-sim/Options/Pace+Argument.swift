import ArgumentParser
import Pipeline

extension Pace {
    /// Reads `--speed`: `max`, `realtime` or a positive factor.
    /// - Throws: a `ValidationError` that lists the accepted values.
    static func parse(_ text: String) throws -> Pace {
        guard let pace = Pace(text) else { throw ValidationError("'\(text)' is not max, realtime or a positive number") }
        return pace
    }
}
