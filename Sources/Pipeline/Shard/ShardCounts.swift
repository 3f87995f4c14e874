/// Adds `count` to `total`, or throws `problem` where the sum would pass
/// 2^63 − 1: shard files whose counts do were edited or damaged, and the
/// merge says so rather than trap.
func add(_ count: Int, to total: inout Int, else problem: ShardFileError) throws {
    let (sum, overflow) = total.addingReportingOverflow(count)
    guard !overflow else { throw problem }
    total = sum
}
