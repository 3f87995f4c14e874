/// The most that the counts of a merge's shard files may add up to: half
/// of what an `Int` holds, so that no sum the merge and its summary make
/// of them (and of the outcomes they count) can pass 2^63 − 1. No run
/// comes near: 2^62 fixes take 15 000 years at 10M a second.
let shardCountsLimit = 1 << 62

/// Adds `count` to `total`, or throws `problem` where the sum would pass
/// ``shardCountsLimit``: shard files whose counts do were edited or
/// damaged, and the merge says so rather than trap.
func add(_ count: Int, to total: inout Int, else problem: ShardFileError) throws {
    let (sum, overflow) = total.addingReportingOverflow(count)
    guard !overflow, sum <= shardCountsLimit else { throw problem }
    total = sum
}
