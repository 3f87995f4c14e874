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
        ends.withUnsafeBufferPointer { ends in
            func name(_ index: Int) -> UnsafeRawBufferPointer {
                let start = index == 0 ? 0 : ends[index - 1]
                return UnsafeRawBufferPointer(start: bytes.baseAddress.unsafelyUnwrapped + start, count: ends[index] - start)
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
                            if let id = table.find(name(index), hash: hashes[index], firstWord: firstWord) {
                                ids.initializeElement(at: index, to: id)
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

        /// The ID of the name that `utf8` spells, or `nil`; `firstWord` is
        /// the table's word at the probe's start, when read already.
        func find(_ utf8: UnsafeRawBufferPointer, hash: UInt64, firstWord: UInt64? = nil) -> DeviceID? {
            let short = ShortName(utf8)
            return records.withUnsafeBufferPointer { records in
                slots.find(hash: hash, firstWord: firstWord) { number in
                    guard let short else { return records[number].entry._withUnsafeGuaranteedRef { $0.isNamed(utf8) } }
                    return records[number].short == short
                }.map { DeviceID(entry: records[$0].entry, number: UInt32(truncatingIfNeeded: $0)) }
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

/// A name of at most 16 bytes as two words and its length: two names are
/// the same exactly when these are (the words overlap when the name is
/// not a multiple of eight long, and the length tells them apart).
struct ShortName: Equatable {
    private let first: UInt64
    private let second: UInt64
    private let count: Int

    /// `utf8` as two words; `nil` when it is longer than 16 bytes.
    init?(_ utf8: UnsafeRawBufferPointer) {
        count = utf8.count
        switch count {
        case 9...16: (first, second) = (Self.word(utf8, 0), Self.word(utf8, count - 8))
        case 8: (first, second) = (Self.word(utf8, 0), 0)
        case 4..<8:
            first = UInt64(utf8.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
            second = UInt64(utf8.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
        case 1..<4: (first, second) = (UInt64(utf8[0]) | UInt64(utf8[count / 2]) << 8 | UInt64(utf8[count - 1]) << 16, 0)
        case 0: (first, second) = (0, 0)
        default: return nil
        }
    }

    private static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }
}

extension DeviceNameEntry {
    /// Whether the name's UTF-8 is `utf8`.
    func isNamed(_ utf8: UnsafeRawBufferPointer) -> Bool {
        name.utf8.withContiguousStorageIfAvailable { ByteWords.equal(UnsafeRawBufferPointer($0), utf8) }
            ?? name.utf8.elementsEqual(utf8)
    }
}
