import GeoCore

/// Hands a history's fixes on oldest first, whichever way the file lists
/// them.
///
/// Google's older exports list the newest record first; a replay of them
/// in file order would have every fix go back in time. The first
/// ``decisiveCount`` timed fixes decide: when each is earlier than the one
/// before it, the history is newest first, and its fixes are held to the
/// end of the file and handed on reversed (memory then grows with the
/// file, as the reorder window it spares would). Otherwise they are handed
/// on as they come, the first few once they have decided. A pure state
/// machine: fixes in, fixes out.
struct TakeoutRecordOrder {
    /// How many timed fixes decide the order.
    static let decisiveCount = 8

    private enum Order {
        case undecided
        case fileOrder
        case newestFirst
    }

    private var order = Order.undecided
    private var held: [Fix] = []
    private var heldTimes = 0

    /// Takes the next fix in file order; appends to `fixes` what may go on.
    mutating func add(_ fix: Fix, to fixes: inout [Fix]) {
        if order == .fileOrder { return fixes.append(fix) }
        held.append(fix)
        guard order == .undecided, fix.time != nil else { return }
        heldTimes += 1
        if heldTimes == Self.decisiveCount { decide(into: &fixes) }
    }

    /// Ends the file: appends whatever is held, oldest first.
    mutating func finish(into fixes: inout [Fix]) {
        if order == .undecided { decide(into: &fixes) }
        if order == .newestFirst {
            held.reverse()
            // Handed over rather than copied: a long history is held once.
            if fixes.isEmpty { swap(&fixes, &held) } else { fixes.append(contentsOf: held) }
        }
        held = []
    }

    private mutating func decide(into fixes: inout [Fix]) {
        let times = held.compactMap(\.time)
        let goesBack = times.count >= 2 && zip(times, times.dropFirst()).allSatisfy { $1 < $0 }
        order = goesBack ? .newestFirst : .fileOrder
        if order == .fileOrder {
            fixes.append(contentsOf: held)
            held = []
        }
    }
}
