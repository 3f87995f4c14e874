/// "Did you mean …?" for names a person typed: the valid name nearest to
/// a misspelt one, by edit distance.
public enum Spelling {
    /// The name in `names` closest to `name` (Levenshtein distance; the
    /// first of equals); `name` itself when `names` is empty.
    public static func nearest(to name: String, in names: [String]) -> String {
        names.min { distance($0, name) < distance($1, name) } ?? name
    }

    /// The name in `names` that `name` may have meant: the one that is the
    /// same but for case, else the nearest within `maximumDistance` edits;
    /// `nil` when none is. Each distance is worked out once, for lists of
    /// many names (100 000 task ids).
    public static func suggestion(for name: String, in names: [String], maximumDistance: Int) -> String? {
        let lowercased = name.lowercased()
        if let same = names.first(where: { $0.lowercased() == lowercased }) { return same }
        let nearest = names.map { (distance: distance($0, name), name: $0) }.min { $0.distance < $1.distance }
        guard let nearest, nearest.distance <= maximumDistance else { return nil }
        return nearest.name
    }

    /// The Levenshtein distance between two names: the fewest insertions,
    /// deletions and substitutions that turn one into the other.
    public static func distance(_ a: String, _ b: String) -> Int {
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
}
