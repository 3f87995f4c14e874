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

    /// The IDs of `names` (a ``DeviceNameBatch``'s, whose long names lie
    /// in `longBytes`), in order. `previous` is the number of the name
    /// interned before them, if known, and becomes the last one's.
    ///
    /// One lock for them all. A fleet's feed names its devices in much the
    /// same order at every round, and the table numbers names in the order
    /// first seen: a short name is first compared with the entry after
    /// the previous name's, which the entries before it brought into cache.
    /// The names that are not are looked up in blocks: the first probes of
    /// a block's names are read before any name is compared. With 100 000
    /// devices each probe is a cache miss, and read together the misses
    /// overlap; a block is small enough for its probes to stay in cache
    /// until they are compared.
    static func intern(
        _ names: [BatchedName], longBytes: UnsafeRawBufferPointer, after previous: inout UInt32?
    )
        -> [DeviceID]
    {
        func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: longBytes[range]) }
        func hash(_ name: BatchedName) -> UInt64 {
            switch name {
            case .short(let short): NameHash.hash(short, seed: seed)
            case .long(let range): NameHash.hash(bytes(range), seed: seed)
            }
        }
        let block = 64
        var hashes = [UInt64](repeating: 0, count: names.count)
        return [DeviceID](unsafeUninitializedCapacity: names.count) { ids, count in
            table.withLock { table in
                var firstWords = [UInt64](repeating: 0, count: block)
                var unknown: [Int] = []
                var start = 0
                while start < names.count {
                    while start < names.count, case .short(let short) = names[start],
                        let id = table.entry(after: previous, ifNamed: short)
                    {
                        ids.initializeElement(at: start, to: id)
                        previous = id.number
                        start += 1
                    }
                    guard start < names.count else { break }
                    let indices = start..<min(start + block, names.count)
                    for index in indices {
                        hashes[index] = hash(names[index])
                        firstWords[index - start] = table.word(at: table.home(of: hashes[index]))
                    }
                    for index in indices {
                        let (hash, firstWord) = (hashes[index], firstWords[index - start])
                        let id =
                            switch names[index] {
                            case .short(let short): table.find(short, hash: hash, firstWord: firstWord)
                            case .long(let range): table.find(bytes(range), hash: hash, firstWord: firstWord)
                            }
                        if let id { ids.initializeElement(at: index, to: id) } else { unknown.append(index) }
                        previous = id?.number
                    }
                    start = indices.upperBound
                }
                for index in unknown {
                    let id =
                        switch names[index] {
                        case .short(let short):
                            short.withBytes { utf8 in
                                table.intern(utf8, hash: hashes[index]) { String(decoding: utf8, as: UTF8.self) }
                            }
                        case .long(let range):
                            table.intern(bytes(range), hash: hashes[index]) { String(decoding: bytes(range), as: UTF8.self) }
                        }
                    ids.initializeElement(at: index, to: id)
                }
                if let last = ids.last { previous = last.number }
            }
            count = names.count
        }
    }

    private struct Table: ~Copyable {
        /// The names' slots, by the entries' numbers.
        var slots = HashSlots()
        /// Each name by its entry's number: the entry, which the table
        /// holds for good, and the name's bytes when short, so that a
        /// lookup reads one record and not the entry (another cache miss
        /// each, with 100 000 devices, and a retain and release).
        var records: [Record] = []

        /// Where the probe for `hash` starts.
        func home(of hash: UInt64) -> Int { slots.home(of: hash) }

        /// The slot at `position`.
        func word(at position: Int) -> UInt64 { slots.words[position] }

        /// The ID of the entry numbered after `previous`, if its name is
        /// `short`'s.
        func entry(after previous: UInt32?, ifNamed short: ShortName) -> DeviceID? {
            guard let previous else { return nil }
            let number = Int(previous) + 1
            guard number < records.count, records[number].short == short else { return nil }
            return DeviceID(entry: records[number].entry, number: UInt32(truncatingIfNeeded: number))
        }

        /// The ID of the name that `utf8` spells, or `nil`; `firstWord` is
        /// the table's word at the probe's start, when read already.
        func find(_ utf8: UnsafeRawBufferPointer, hash: UInt64, firstWord: UInt64? = nil) -> DeviceID? {
            if let short = ShortName(utf8) { return find(short, hash: hash, firstWord: firstWord) }
            return find(hash: hash, firstWord: firstWord) {
                $0.short == nil && $0.entry._withUnsafeGuaranteedRef { $0.isNamed(utf8) }
            }
        }

        /// The ID of the name that `short` holds, or `nil`.
        func find(_ short: ShortName, hash: UInt64, firstWord: UInt64?) -> DeviceID? {
            find(hash: hash, firstWord: firstWord) { $0.short == short }
        }

        /// The ID of the first name on `hash`'s probe whose record `matches`.
        @inline(__always)
        private func find(hash: UInt64, firstWord: UInt64?, where matches: (Record) -> Bool) -> DeviceID? {
            records.withUnsafeBufferPointer { records in
                slots.find(hash: hash, firstWord: firstWord) { matches(records[$0]) }.map {
                    DeviceID(entry: records[$0].entry, number: UInt32(truncatingIfNeeded: $0))
                }
            }
        }

        /// The ID of the name that `utf8` spells, recorded as `name()` if new.
        mutating func intern(_ utf8: UnsafeRawBufferPointer, hash: UInt64, name: () -> String) -> DeviceID {
            if let id = find(utf8, hash: hash) { return id }
            guard let number = UInt32(exactly: records.count) else {
                fatalError("more than \(UInt32.max) device names in one process")
            }
            let entry = Unmanaged.passRetained(DeviceNameEntry(name: name(), utf8: utf8))
            records.append(Record(entry: entry, short: ShortName(utf8)))
            slots.insert(Int(number), hash: hash, count: records.count)
            return DeviceID(entry: entry, number: number)
        }
    }

    /// An interned name: its entry, retained by the table for good, and
    /// the name itself when short.
    private struct Record {
        let entry: Unmanaged<DeviceNameEntry>
        let short: ShortName?
    }
}

extension DeviceNameEntry {
    /// Whether the name's UTF-8 is `utf8`.
    func isNamed(_ utf8: UnsafeRawBufferPointer) -> Bool {
        name.utf8.withContiguousStorageIfAvailable { ByteWords.equal(UnsafeRawBufferPointer($0), utf8) }
            ?? name.utf8.elementsEqual(utf8)
    }
}
