import GeoCore

/// A problem in an itinerary, located by field.
public struct ItineraryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The field's path, e.g. `visits[1].weekdays[2]`; nil for the file as a whole.
    public var field: String?
    /// What is wrong and how to fix it.
    public var message: String

    /// A problem in `field`.
    public init(field: String?, message: String) {
        self.field = field
        self.message = message
    }

    /// `visits[1].every: "20d-10d": the minimum is more than the maximum`.
    public var description: String { field.map { "\($0): \(message)" } ?? message }

    /// A place name that names no place, with the nearest one.
    static func unknownPlace(_ name: String, field: String, places: [String]) -> ItineraryError {
        ItineraryError(field: field, message: "no place is called \"\(name)\"" + suggestion(for: name, among: places))
    }

    /// `; did you mean "Pharmacy"?` for the candidate `text` likely
    /// meant, or nothing when none is near.
    static func suggestion(for text: String, among candidates: [String]) -> String {
        Spelling.likely(text, in: candidates).map { "; did you mean \"\($0)\"?" } ?? ""
    }
}
