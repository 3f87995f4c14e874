import GeoCore
import TestSupport
import Testing

@Suite struct PackedBytesTests {
    @Test func numbersCountsAndStringsReadBackExactly() {
        var writer = PackedWriter()
        let counts = [0, 1, 127, 128, 300, Int(Int32.max), Int.max]
        for count in counts { writer.write(count: count) }
        for value in [Int64.min, -1, 0, Int64.max] { writer.write(value) }
        for value in [0.0, -0.0, .pi, -.infinity, .leastNonzeroMagnitude] { writer.write(value) }
        for text in ["", "phone", "Müller-Straße 12 \u{1b}[2J", "e\u{301}"] { writer.write(text) }
        writer.write(UInt8(200))
        var reader = PackedReader(writer.packed)
        #expect(counts.map { _ in reader.readCount() } == counts)
        #expect((0..<4).map { _ in reader.readInt64() } == [.min, -1, 0, .max])
        let doubles = (0..<5).map { _ in reader.readDouble() }
        #expect(doubles.map(\.bitPattern) == [0.0, -0.0, .pi, -.infinity, .leastNonzeroMagnitude].map(\.bitPattern))
        let texts = (0..<4).map { _ in reader.readString() }
        #expect(texts.map { Array($0.utf8) } == ["", "phone", "Müller-Straße 12 \u{1b}[2J", "e\u{301}"].map { Array($0.utf8) })
        #expect(reader.readByte() == 200)
    }

    @Test func fixesReadBackFieldForField() {
        var random = SeededRandom(seed: SeededRandom.testSeed(default: 7))
        func maybe(_ value: Double) -> Double? { random.uniform(0, 1) < 0.5 ? value : nil }
        var fixes: [Fix] = []
        for index in 0..<200 {
            let time: Timestamp? =
                random.uniform(0, 1) < 0.8
                ? Timestamp(nanoseconds: Int64(random.uniform(-9e18, 9e18)), fractionDigits: UInt8(index % 10)) : nil
            let device: String? = index % 3 == 0 ? nil : index % 3 == 1 ? "" : "device \(index)"
            var fix = Fix(
                time: time, coordinate: Coordinate(latitude: random.uniform(-90, 90), longitude: random.uniform(-180, 180)))
            fix.elevation = maybe(random.uniform(-400, 9000))
            fix.speed = maybe(.nan)
            fix.course = maybe(random.uniform(0, 360))
            fix.hdop = maybe(random.uniform(0, 50))
            fix.accuracy = maybe(-0.0)
            fix.device = device
            fixes.append(fix)
        }
        var writer = PackedWriter()
        for fix in fixes { writer.write(fix) }
        var reader = PackedReader(writer.packed)
        for fix in fixes {
            let read = reader.readFix()
            #expect(read.time == fix.time)
            #expect(read.time?.fractionDigits == fix.time?.fractionDigits)
            #expect(read.coordinate == fix.coordinate)
            let fields: [KeyPath<Fix, Double?>] = [\.elevation, \.speed, \.course, \.hdop, \.accuracy]
            for field in fields { #expect(read[keyPath: field]?.bitPattern == fix[keyPath: field]?.bitPattern) }
            #expect(read.device == fix.device)
        }
    }
}
