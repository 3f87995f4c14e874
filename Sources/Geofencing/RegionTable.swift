import GeoCore

/// Regions by key (their position) in a few flat arrays: what a run over
/// millions of regions holds, about 40 bytes a circle with a short name
/// beside the index, instead of a ``Region`` value (64 bytes and a string
/// each) in every stage.
///
/// A circle is its centre and radius in three `Double` arrays; an area
/// keeps its ``Area`` in a dictionary (and zeros there). Names
/// are UTF-8 bytes one after another, each ending where the next begins;
/// tasks are kept only for the regions that name one. Reading
/// `regions[key]` builds the ``Region`` value.
public struct RegionTable: RandomAccessCollection, ExpressibleByArrayLiteral, Equatable, Sendable {
    private var latitudes: [Double] = []
    private var longitudes: [Double] = []
    private var radii: [Double] = []
    private var areas: [Int: Area] = [:]
    private var nameBytes: [UInt8] = []
    /// Where each name ends in `nameBytes`.
    private var nameEnds: [Int] = []
    /// The keys that name a task, ascending, and the tasks.
    private var taskKeys: [Int] = []
    private var taskNames: [String] = []
    /// Whether every region's task is its name (a stage without tasks).
    private var namesAreTasks = false

    /// No regions.
    public init() {}

    /// The regions of `regions`, in order.
    public init(_ regions: some Sequence<Region>) {
        for region in regions { append(region) }
    }

    /// The regions listed, in order.
    public init(arrayLiteral regions: Region...) { self.init(regions) }

    /// Adds `region` under the next key.
    public mutating func append(_ region: Region) {
        switch region.shape {
        case .circle(let circle):
            latitudes.append(circle.centre.latitude)
            longitudes.append(circle.centre.longitude)
            radii.append(circle.radius)
        case .area(let area):
            areas[count] = area
            latitudes.append(0)
            longitudes.append(0)
            radii.append(0)
        }
        if let task = region.task {
            taskKeys.append(count)
            taskNames.append(task)
        }
        nameBytes.append(contentsOf: region.id.utf8)
        nameEnds.append(nameBytes.count)
    }

    /// Whether both hold the same regions under the same keys.
    public static func == (a: RegionTable, b: RegionTable) -> Bool { a.elementsEqual(b) }

    /// The first key.
    public var startIndex: Int { 0 }
    /// One past the last key.
    public var endIndex: Int { nameEnds.count }

    /// The region under `key`.
    public subscript(key: Int) -> Region { Region(id: name(at: key), shape: shape(at: key), task: task(at: key)) }

    /// The name of the region under `key`.
    public func name(at key: Int) -> String {
        let start = key == 0 ? 0 : nameEnds[key - 1]
        return nameBytes.withUnsafeBufferPointer { String(decoding: $0[start..<nameEnds[key]], as: UTF8.self) }
    }

    /// The shape of the region under `key`.
    public func shape(at key: Int) -> Shape {
        if !areas.isEmpty, let area = areas[key] { return .area(area) }
        return .circle(centre: Coordinate(latitude: latitudes[key], longitude: longitudes[key]), radius: radii[key])
    }

    /// The task of the region under `key`, if it names one.
    public func task(at key: Int) -> String? {
        if namesAreTasks { return name(at: key) }
        let index = Self.firstIndex(in: taskKeys, notBelow: key)
        return index < taskKeys.count && taskKeys[index] == key ? taskNames[index] : nil
    }

    /// The regions that name a task, by ascending key, with the task (none
    /// for a table made by ``namingTasks()``).
    public var namedTasks: Zip2Sequence<[Int], [String]> { zip(taskKeys, taskNames) }

    /// The shapes by key, read as they are needed.
    public var shapes: LazyMapCollection<Range<Int>, Shape> { indices.lazy.map(shape(at:)) }

    /// The table with `metres` added to every circle's radius (at least
    /// 1 cm is left); areas as they are.
    public func padded(by metres: Double) -> RegionTable {
        guard metres != 0 else { return self }
        var table = self
        table.radii = radii.map { Swift.max($0 + metres, 0.01) }
        return table
    }

    /// The table where every region's task is its own name: the always-due
    /// stand-ins of a stage made without tasks.
    public func namingTasks() -> RegionTable {
        var table = self
        table.taskKeys = []
        table.taskNames = []
        table.namesAreTasks = true
        return table
    }

    /// For each key whose name equals an earlier region's (as strings
    /// compare, canonically), the first key with that name; empty when
    /// every name is new. One pass with an open-addressing table at most
    /// 60 % full, whose 8-byte slots hold a key and 32 bits of its name's
    /// hash, so that names are compared only when those match.
    public func repeatedNames() -> [Int: Int] {
        var capacity = 16
        while capacity * 3 < count * 5 { capacity *= 2 }
        var slots = [UInt64](repeating: .max, count: capacity)
        var repeated: [Int: Int] = [:]
        for key in indices {
            let text = name(at: key)
            let hash = UInt64(UInt(bitPattern: text.hashValue))
            let tag = hash >> 32
            var slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
            while true {
                let entry = slots[slot]
                if entry == .max {
                    slots[slot] = tag << 32 | UInt64(key)
                    break
                }
                if entry >> 32 == tag, name(at: Int(entry & 0xFFFF_FFFF)) == text {
                    repeated[key] = Int(entry & 0xFFFF_FFFF)
                    break
                }
                slot = (slot + 1) & (capacity - 1)
            }
        }
        return repeated
    }

    /// The first position in the ascending `keys` whose key is not below `key`.
    package static func firstIndex(in keys: [Int], notBelow key: Int) -> Int {
        var low = 0, high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
