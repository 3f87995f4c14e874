/// The Levenshtein distance between two names, for "did you mean" hints.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
    var row = Array(0...b.count)
    for i in 1...a.count {
        var diagonal = row[0]
        row[0] = i
        for j in 1...b.count {
            let substitution = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)
            diagonal = row[j]
            row[j] = min(row[j] + 1, row[j - 1] + 1, substitution)
        }
    }
    return row[b.count]
}

/// The name in `names` closest to `name` by edit distance, for "did you
/// mean" hints (`name` itself when `names` is empty).
public func nearest(to name: String, in names: [String]) -> String {
    names.min { editDistance($0, name) < editDistance($1, name) } ?? name
}
