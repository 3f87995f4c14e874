/// "Did you mean …?" for names a person typed: the valid name nearest to
/// a misspelt one, by edit distance.
public enum Spelling {
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

    /// The name in `names` that `name` most likely meant, or `nil` when
    /// none is near enough to suggest: the same but for case, else the
    /// shortest that begins with it (three letters at least), else the
    /// nearest, case aside, within an edit for every three letters (one at
    /// least, and fewer than it has). A name far from every one gets no
    /// suggestion rather than an arbitrary one.
    public static func likely(_ name: String, in names: [String]) -> String? {
        let lowercased = name.lowercased()
        guard !lowercased.isEmpty else { return nil }
        if let same = names.first(where: { $0.lowercased() == lowercased }) { return same }
        if lowercased.count >= 3,
            let begun = names.filter({ $0.lowercased().hasPrefix(lowercased) }).min(by: { $0.count < $1.count })
        {
            return begun
        }
        let nearest = names.map { (distance: distance($0.lowercased(), lowercased), name: $0) }.min { $0.distance < $1.distance }
        // A name of one or two letters would be a typo away from every short one.
        guard let nearest, nearest.distance <= max(1, lowercased.count / 3), nearest.distance < lowercased.count else {
            return nil
        }
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
