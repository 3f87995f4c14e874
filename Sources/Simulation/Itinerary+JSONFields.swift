/// One JSON object of an itinerary file, read field by field so that every
/// problem names its field.
struct JSONFields {
    private let values: [String: Any]
    /// The object's path in the file (`visits[1]`); nil for the root.
    let path: String?

    /// Reads `value` as an object whose keys are all among `keys`.
    /// - Throws: ``ItineraryError`` if it is not an object, or for the
    ///   first unknown key (in key order), naming the nearest valid one.
    init(_ value: Any, path: String?, keys: [String]) throws(ItineraryError) {
        guard let values = value as? [String: Any] else { throw ItineraryError(field: path, message: "must be an object") }
        if let unknown = values.keys.sorted().first(where: { !keys.contains($0) }) {
            throw ItineraryError(
                field: path, message: "unknown key \"\(unknown)\"" + ItineraryError.suggestion(for: unknown, among: keys))
        }
        self.values = values
        self.path = path
    }

    /// The path of the field `key`: `visits[1].every`.
    func field(_ key: String) -> String { path.map { "\($0).\(key)" } ?? key }

    /// Whether the object has `key`.
    func has(_ key: String) -> Bool { values[key] != nil }

    func string(_ key: String) throws(ItineraryError) -> String? {
        try value(key, as: String.self, "a string")
    }

    func number(_ key: String) throws(ItineraryError) -> Double? {
        try value(key, as: Double.self, "a number")
    }

    func array(_ key: String) throws(ItineraryError) -> [Any]? {
        try value(key, as: [Any].self, "an array")
    }

    func requiredString(_ key: String) throws(ItineraryError) -> String {
        guard let value = try string(key) else { throw missing(key) }
        return value
    }

    func requiredNumber(_ key: String) throws(ItineraryError) -> Double {
        guard let value = try number(key) else { throw missing(key) }
        return value
    }

    func requiredArray(_ key: String) throws(ItineraryError) -> [Any] {
        guard let value = try array(key) else { throw missing(key) }
        return value
    }

    private func value<T>(_ key: String, as type: T.Type, _ kind: String) throws(ItineraryError) -> T? {
        guard let value = values[key] else { return nil }
        guard let typed = value as? T else { throw ItineraryError(field: field(key), message: "must be \(kind)") }
        return typed
    }

    private func missing(_ key: String) -> ItineraryError {
        ItineraryError(field: field(key), message: "is missing")
    }
}
