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

    /// `; did you mean "Pharmacy"?` for the candidate nearest `text`, or
    /// nothing when there is no candidate.
    static func suggestion(for text: String, among candidates: [String]) -> String {
        let needle = Array(text.lowercased())
        let nearest = candidates.min {
            editDistance(needle, Array($0.lowercased())) < editDistance(needle, Array($1.lowercased()))
        }
        return nearest.map { "; did you mean \"\($0)\"?" } ?? ""
    }

    /// The Levenshtein distance: the fewest insertions, deletions and
    /// substitutions that turn `a` into `b`.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
