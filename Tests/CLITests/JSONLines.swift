import Foundation
import Testing

/// The objects of JSON-lines output, one per non-empty line; a line that
/// is not a JSON object fails the test.
func jsonLines(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map {
        try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
}
