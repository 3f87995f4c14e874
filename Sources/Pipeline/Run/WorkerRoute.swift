import GeoCore

/// Which worker thread of ``ShardedStages`` takes a device's inputs. The
/// FNV-1a hash of its name that ``DeviceShard`` reads picks the shard of
/// a `--shard I/N` run (the remainder by N), and what is left of it (the
/// quotient) the worker, so that a shard's workers share its devices
/// evenly; a run that is not sharded splits by the remainder by the
/// number of workers, as ``DeviceShard`` does.
struct WorkerRoute {
    /// The worker of an input whose device belongs to another shard.
    static let elsewhere = UInt8.max

    private let workers: UInt64
    private let shard: UInt64
    private let shards: UInt64
    private var last: (id: DeviceID, worker: UInt8)?
    /// ``DeviceID/unnamed``, read once rather than through its lazy
    /// initializer's check at every fix.
    private let unnamed = DeviceID.unnamed

    /// The route to `workers` workers (fewer than ``elsewhere``) of the
    /// devices of shard `shard` of `shards`.
    init(workers: Int, shard: Int, of shards: Int) {
        precondition((1..<Int(Self.elsewhere)).contains(workers), "1 to 254 workers")
        precondition((0..<shards).contains(shard), "a shard among the shards")
        self.workers = UInt64(workers)
        self.shard = UInt64(shard)
        self.shards = UInt64(shards)
    }

    /// The worker of the device `name` (`nil`: the unnamed device).
    mutating func worker(of name: String?) -> UInt8 { worker(of: name.map(DeviceID.init)) }

    /// The worker of the device `id` (`nil`: the unnamed device),
    /// remembering the last answer (fixes of one device usually come
    /// together).
    mutating func worker(of id: DeviceID?) -> UInt8 {
        guard workers > 1 || shards > 1 else { return 0 }
        let id = id ?? unnamed
        if let last, last.id == id { return last.worker }
        let hash = id.stableHash
        let worker: UInt8
        if shards == 1 {
            worker = UInt8(hash % workers)
        } else {
            worker = hash % shards == shard ? UInt8(hash / shards % workers) : Self.elsewhere
        }
        last = (id, worker)
        return worker
    }
}
