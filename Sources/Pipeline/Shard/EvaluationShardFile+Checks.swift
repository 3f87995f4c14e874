import Evaluation

extension EvaluationShardFile {
    /// Throws when a match's latency lies outside `window`, the matching
    /// window of the shards' command line, which no shard writes.
    /// - Throws: ``ShardFileError`` naming the run and setting.
    public func check(window: MatchWindow) throws {
        // The latencies keep their full value; the slack is for rounding.
        let allowed = (-window.early - 0.001)...(window.late + 0.001)
        for tally in tallies {
            for (index, setting) in tally.settings.enumerated() {
                for latency in setting.enter.latencies + setting.exit.latencies where !allowed.contains(latency) {
                    throw ShardFileError(
                        path: path, line: nil,
                        problem: "run \(tally.run), setting \(index + 1): a match \(latency) s after its true event, "
                            + "outside the matching window (\(-window.early) to \(window.late) s): was the file edited?")
                }
            }
        }
    }

    /// Throws when the counts of `files` add up past 2^62, which no shards
    /// of one run do (see ``shardCountsLimit``: each sum the merge makes of
    /// them is part of this one).
    /// - Throws: ``ShardFileError`` naming the file whose counts passed it.
    public static func checkTotals(_ files: [EvaluationShardFile]) throws {
        var total = 0
        for file in files {
            let problem = ShardFileError(
                path: file.path, line: nil,
                problem: "counts that add up past 2^62 with those of the files before it: was it edited?")
            for count in file.tallies.lazy.flatMap(\.settings).flatMap(\.counts) {
                try add(count, to: &total, else: problem)
            }
        }
    }
}

extension EvaluationRunTally {
    /// The hours from the first instant a timestamp holds to the last.
    static let longestTrackHours = 0x1p64 / 3.6e12

    /// What makes this tally one that no shard of a run of `runs` runs
    /// writes; `nil` when nothing does.
    func problem(runs: Int) -> String? {
        guard (1...runs).contains(run) else { return "run \(run) of a run of \(runs)" }
        // No track spans more than the 2^64 ns of a feed's times (1677 to
        // 2262), nor, in any file one could write, goes 10^12 km: the
        // bounds keep the sums of 100 000s of devices printable.
        for device in coverage ?? []
        where device.place < 0 || !(0...Self.longestTrackHours).contains(device.hours) || !(0...1e12).contains(device.km) {
            return "run \(run): a truth device of \(device.hours) h and \(device.km) km at place \(device.place) "
                + "(at most 5 124 096 h, 1677 to 2262, and 10^12 km)"
        }
        for (index, setting) in settings.enumerated() {
            if let problem = setting.problem { return "run \(run), setting \(index + 1): \(problem)" }
        }
        return nil
    }
}

extension EvaluationRunTally.SettingTally {
    /// Every count, for their sum.
    var counts: [Int] {
        [enter.tp, enter.fp, enter.fn, exit.tp, exit.fp, exit.fn, visits, recalled, inaccurate, invalid, untimed, late]
    }

    /// What makes these counts ones that no shard writes; `nil` when
    /// nothing does.
    var problem: String? {
        if counts.contains(where: { $0 < 0 }) { return "a negative count" }
        if recalled > visits { return "\(recalled) of \(visits) visits recalled" }
        for (name, kind) in [("entries", enter), ("exits", exit)] where kind.latencies.count != kind.tp {
            return "\(kind.tp) \(name) matched but \(kind.latencies.count) latencies"
        }
        return nil
    }
}
