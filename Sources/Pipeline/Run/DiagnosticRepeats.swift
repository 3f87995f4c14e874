import FeedParsing

/// Keeps a diagnostic that repeats on many lines from flooding the
/// terminal: the first few of a kind are printed, the rest counted, and
/// the count is said once at the end ("… and 119 more like this").
///
/// Two diagnostics are alike when they have the same code and the same
/// message once every run of digits is set aside (`epoch 12:00:01 UTC: no
/// date` and `epoch 12:00:02 UTC: no date` are alike).
struct DiagnosticRepeats {
    /// How many of a kind are printed before the rest are counted.
    static let shown = 3

    private var seen: [String: Int] = [:]
    private var order: [String] = []
    private var examples: [String: String] = [:]

    /// Whether `diagnostic` is printed (the first ``shown`` of its kind);
    /// otherwise it is counted.
    mutating func shouldPrint(_ diagnostic: FeedDiagnostic) -> Bool {
        let key = Self.shape(of: diagnostic)
        let count = seen[key, default: 0] + 1
        seen[key] = count
        if count == Self.shown + 1 {
            order.append(key)
            examples[key] = diagnostic.message
        }
        return count <= Self.shown
    }

    /// One line per kind that was cut short, in the order they first were.
    var summaries: [String] {
        order.map { key in
            let more = seen[key, default: 0] - Self.shown
            return "… and \(more) more like this: \(examples[key] ?? key) (use --verbose to see all)"
        }
    }

    private static func shape(of diagnostic: FeedDiagnostic) -> String {
        var shape = diagnostic.code.rawValue + ":"
        var inDigits = false
        for character in diagnostic.message {
            if character.isASCII, character.isNumber {
                if !inDigits { shape.append("#") }
                inDigits = true
            } else {
                shape.append(character)
                inDigits = false
            }
        }
        return shape
    }
}
