import Foundation
import TestSupport
import Testing

@testable import Recurrence

/// The tasks array checked in pieces on several threads (JSONArrayCheck.swift)
/// against the check on one thread, on small texts checked in pieces from
/// their first byte.
@Suite struct JSONArrayCheckTests {
    /// Titles, some like the seam between two tasks, and escapes.
    static let titles = [#"Errand"#, #"}, {"#, #"},\n  {"#, #"a \"quoted\" }, {"#, #"]"#, #"[{"#, #"\\"#]
    /// Bytes a broken text has instead of one of its own.
    static let breakers = Array(#"{}[],:" x0\"#.utf8) + [0x0A, 0x00, 0xC3]

    /// A tasks file of a few tasks, some with places, compact or indented.
    static func text(_ random: inout SeededRandom) -> String {
        let indented = random.next() % 2 == 0
        let (open, gap, close) = indented ? ("\n  ", ",\n  ", "\n") : ("", ",", "")
        let place = #"{"name": "Shop", "lat": 45.1, "lon": -13.6, "radius": 150}"#
        let tasks = (0..<Int(3 + random.next() % 40)).map { index in
            let title = titles[Int(random.next() % UInt64(titles.count))]
            let places = [String](repeating: place, count: Int(random.next() % 3))
            return #"{"id": "t\#(index)", "title": "\#(title)", "start": "2025-01-01T00:00:00Z", "#
                + #""schedule": {"fixed": {"every": "1d"}}, "locations": [\#(places.joined(separator: gap))]}"#
        }
        return #"{"tasks": [\#(open)\#(tasks.joined(separator: gap))\#(close)]}"#
    }

    /// Puts one of `breakers` in place of a byte of `bytes`, `times` times.
    static func `break`(_ bytes: inout [UInt8], times: Int, with breakers: [UInt8], _ random: inout SeededRandom) {
        for _ in 0..<times {
            bytes[Int(random.next() % UInt64(bytes.count))] = breakers[Int(random.next() % UInt64(breakers.count))]
        }
    }

    /// The tasks (ids and titles) of `bytes`, or its problem.
    func read(_ bytes: [UInt8], jobs: Int, piecewiseMinimum: Int, reading: TaskFile.Reading = .direct) -> String {
        do {
            let (tasks, positions) = try TaskFile.decode(
                Data(bytes), jobs: jobs, reading: reading, piecewiseMinimum: piecewiseMinimum)
            // The table of ids handed on with the tasks: each id at its task.
            #expect(positions.entries.map(\.name) == tasks.map(\.id))
            #expect(positions.entries.map(\.position) == Array(tasks.indices))
            return tasks.map { "\($0.id) \($0.title)" }.joined(separator: "\n")
        } catch {
            return "problem: \(error)"
        }
    }

    @Test("seeded: random tasks texts, whole or broken anywhere, read in pieces as on one thread")
    func piecesReadAsOneThread() {
        let seed = SeededRandom.testSeed(default: 23)
        print("JSONArrayCheckTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        var broken = 0
        for round in 0..<300 {
            var bytes = Array(Self.text(&random).utf8)
            Self.break(&bytes, times: Int(random.next() % 3), with: Self.breakers, &random)
            let one = read(bytes, jobs: 1, piecewiseMinimum: .max)
            if one.hasPrefix("problem") { broken += 1 }
            for jobs in [2, 3, 5] {
                #expect(
                    read(bytes, jobs: jobs, piecewiseMinimum: 0) == one,
                    "round \(round), \(jobs) threads: \(String(decoding: bytes, as: UTF8.self))")
            }
        }
        // Both kinds of text were read: whole ones and broken ones.
        #expect(broken > 50 && broken < 250, "\(broken) of 300 broken")
    }

    @Test("seeded: broken texts read straight from their bytes as they are checked get the tree's tasks or problem")
    func directReadingChecksWhatItReads() {
        // What the direct reader must itself refuse, now that the check
        // passes over what it reads: raw control characters and broken
        // UTF-8 in strings, and numbers out of JSON's form.
        let breakers = Self.breakers + Array("+-.e9".utf8) + [0x09, 0x1F, 0x80, 0xFF]
        let seed = SeededRandom.testSeed(default: 29)
        print("JSONArrayCheckTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        var broken = 0
        for round in 0..<300 {
            var bytes = Array(Self.text(&random).utf8)
            Self.break(&bytes, times: Int(1 + random.next() % 2), with: breakers, &random)
            let tree = read(bytes, jobs: 1, piecewiseMinimum: .max, reading: .tree)
            if tree.hasPrefix("problem") { broken += 1 }
            for (jobs, piecewiseMinimum) in [(1, Int.max), (3, 0)] {
                #expect(
                    read(bytes, jobs: jobs, piecewiseMinimum: piecewiseMinimum) == tree,
                    "round \(round), \(jobs) threads: \(String(decoding: bytes, as: UTF8.self))")
            }
        }
        #expect(broken > 100 && broken < 300, "\(broken) of 300 broken")
    }

    @Test("after an array checked in pieces, the text goes on as deep as the nesting limit allows, and no deeper")
    func depthAfterPieces() {
        var random = SeededRandom(seed: 5)
        let tasks = Self.text(&random).dropLast()
        func nested(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
        // The top-level object is one level: 511 more is the limit of 512.
        for (depth, fits) in [(511, true), (512, false)] {
            let bytes = Array((tasks + #", "deep": \#(nested(depth))}"#).utf8)
            let one = read(bytes, jobs: 1, piecewiseMinimum: .max)
            #expect(one.hasPrefix("problem") != fits, "\(one.suffix(100))")
            #expect(read(bytes, jobs: 3, piecewiseMinimum: 0) == one, "\(depth) levels")
        }
    }
}
