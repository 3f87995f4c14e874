/// Keeps `value` until the process exits instead of freeing it: what a
/// command has loaded (100 000 tasks, 10 000 regions) is freed with the
/// process at once, which saves the release of every string one by one
/// (58M instructions, on the main thread after the run, for a replay of
/// 100 000 tasks). For what a command holds to its end, just before it
/// returns.
func leaveToExit<Value>(_ value: Value) {
    _ = Unmanaged.passRetained(KeptToExit(value))
}

/// A value no one releases (see ``leaveToExit(_:)``).
private final class KeptToExit<Value> {
    let value: Value

    init(_ value: Value) { self.value = value }
}
