import Synchronization

/// Every name interned so far: an open-addressing table of the names'
/// keyed hashes, behind a lock (decoders intern on their own threads).
enum DeviceNameRegistry {
    private static let table = Mutex(Table())
    /// The hash's key, drawn once per process, so that a feed cannot line
    /// its names up on one table entry without knowing it.
    private static let seed = UInt64.random(in: .min ... .max)

    /// The ID of `name`.
    static func intern(_ name: String) -> DeviceID {
        var utf8 = name
        return utf8.withUTF8 { bytes in
            let bytes = UnsafeRawBufferPointer(bytes)
            let hash = NameHash.hash(bytes, seed: seed)
            return table.withLock { $0.intern(bytes, hash: hash) { name } }
        }
    }

    /// The IDs of the names that `bytes` holds end to end (each valid
    /// UTF-8, ending at the next of `ends`), in order.
    ///
    /// One lock for them all, and the names looked up in blocks: the first
    /// probes of a block's names are read before any name is compared.
    /// With 100 000 devices each probe is a cache miss, and read together
    /// the misses overlap; a block is small enough for its probes to stay
    /// in cache until they are compared.
    static func intern(_ bytes: UnsafeRawBufferPointer, ends: [Int]) -> [DeviceID] {
        func name(_ index: Int) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]])
        }
        let hashes = ends.indices.map { NameHash.hash(name($0), seed: seed) }
        let block = 64
        return [DeviceID](unsafeUninitializedCapacity: ends.count) { ids, count in
            table.withLock { table in
                var firstWords = [UInt64](repeating: 0, count: block)
                var unknown: [Int] = []
                for blockStart in stride(from: 0, to: ends.count, by: block) {
                    let indices = blockStart..<min(blockStart + block, ends.count)
                    for index in indices { firstWords[index - blockStart] = table.word(at: table.home(of: hashes[index])) }
                    for index in indices {
                        let firstWord = firstWords[index - blockStart]
                        if let entry = table.find(name(index), hash: hashes[index], firstWord: firstWord) {
                            ids.initializeElement(at: index, to: DeviceID(entry: entry))
                        } else {
                            unknown.append(index)
                        }
                    }
                }
                for index in unknown {
                    let id = table.intern(name(index), hash: hashes[index]) { String(decoding: name(index), as: UTF8.self) }
                    ids.initializeElement(at: index, to: id)
                }
            }
            count = ends.count
        }
    }

    private struct Table: ~Copyable {
        /// The names' slots, by the entries' numbers.
        var slots = HashSlots()
        /// The names, each holding its entry for good.
        var entries: [DeviceNameEntry] = []

        /// Where the probe for `hash` starts.
        func home(of hash: UInt64) -> Int { slots.home(of: hash) }

        /// The slot at `position`.
        func word(at position: Int) -> UInt64 { slots.words[position] }

        /// The entry of the name that `utf8` spells, or `nil`;
        /// `firstWord` is the table's word at the probe's start.
        func find(_ utf8: UnsafeRawBufferPointer, hash: UInt64, firstWord: UInt64? = nil) -> DeviceNameEntry? {
            slots.find(hash: hash, firstWord: firstWord) { entries[$0].isNamed(utf8) }.map { entries[$0] }
        }

        /// The ID of the name that `utf8` spells, recorded as `name()` if new.
        mutating func intern(_ utf8: UnsafeRawBufferPointer, hash: UInt64, name: () -> String) -> DeviceID {
            if let entry = find(utf8, hash: hash) { return DeviceID(entry: entry) }
            guard let number = UInt32(exactly: entries.count) else {
                fatalError("more than \(UInt32.max) device names in one process")
            }
            let entry = DeviceNameEntry(name: name(), number: number)
            entries.append(entry)
            slots.insert(Int(number), hash: hash, count: entries.count)
            return DeviceID(entry: entry)
        }
    }
}

extension DeviceNameEntry {
    /// Whether the name's UTF-8 is `utf8`.
    func isNamed(_ utf8: UnsafeRawBufferPointer) -> Bool {
        name.utf8.withContiguousStorageIfAvailable { ByteWords.equal(UnsafeRawBufferPointer($0), utf8) }
            ?? name.utf8.elementsEqual(utf8)
    }
}
