import GeoCore
import Testing

@testable import Pipeline

/// Which worker thread takes a device: the shard as `--shard` picks it on
/// every machine, and the shard's devices spread over all the workers.
@Suite("The worker of a device")
struct WorkerRouteTests {
    /// 20 000 fleet-like names, the unnamed device among them.
    static let names: [String?] = [nil] + (0..<20_000).map { "vehicle-\($0)" }

    @Test("without --shard: the worker is the shard of as many shards as workers")
    func unshardedAsDeviceShard() {
        for workers in [2, 3, 7] {
            var route = WorkerRoute(workers: workers, shard: 0, of: 1)
            var shards = DeviceShard(count: workers)
            for name in Self.names { #expect(Int(route.worker(of: name)) == shards.shard(of: name), "\(workers)") }
        }
    }

    @Test("with --shard I/N: the shard's devices, and only they, spread evenly over the workers", arguments: [2, 3, 4])
    func shardedEvenly(shards count: Int) {
        for workers in [2, 3, 7] {
            for index in 0..<count {
                var route = WorkerRoute(workers: workers, shard: index, of: count)
                var shards = DeviceShard(count: count)
                var perWorker = Array(repeating: 0, count: workers)
                for name in Self.names {
                    let worker = route.worker(of: name)
                    let mine = shards.shard(of: name) == index
                    #expect((worker == WorkerRoute.elsewhere) == !mine, "\(name ?? "unnamed")")
                    if mine { perWorker[Int(worker)] += 1 }
                }
                // The remainder that picks the shard would put every device
                // of a shard on one worker when N and the workers share a
                // factor; the quotient spreads them.
                let share = Double(perWorker.reduce(0, +)) / Double(workers)
                #expect(
                    perWorker.allSatisfy { abs(Double($0) - share) < share * 0.1 },
                    "\(count) shards, \(workers) workers: \(perWorker)")
            }
        }
    }
}
