extension Array {
    /// The same elements in an array of their own size: what a long-lived
    /// table keeps once an array has stopped growing (`Array(self)` and
    /// `Array(self[...])` share the spare capacity instead).
    package func trimmed() -> [Element] {
        guard capacity > count else { return self }
        var copy: [Element] = []
        copy.reserveCapacity(count)
        copy.append(contentsOf: self)
        return copy
    }
}
