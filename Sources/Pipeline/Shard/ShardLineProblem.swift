/// What is wrong with a shard file's line that `JSONDecoder` could not
/// read, in a few words: where in the line, and what it expected.
enum ShardLineProblem {
    /// `error`, from decoding one line, described for a person.
    static func described(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
                .trimmingPrefix(".").description
        }
        switch error {
        case .keyNotFound(let key, let context):
            let within = path(context)
            return "no \"\(key.stringValue)\"" + (within.isEmpty ? "" : " in \(within)")
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "\(path(context)) is not \(article(type))"
        case .dataCorrupted(let context):
            let within = path(context)
            return within.isEmpty ? "not JSON as a shard writes it" : "\(within): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// `type`'s name for a person: "a whole number", "a number", "text".
    private static func article(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type, is Int64.Type: "a whole number"
        case is Double.Type: "a number"
        case is String.Type: "text"
        case is Bool.Type: "true or false"
        default: "a \(type)"
        }
    }
}
