import FeedParsing
import Foundation
import TestSupport
import Testing

@testable import Pipeline

/// The watch on a serial receiver's first bytes: quiet on NMEA, however it
/// is cut into reads; speaking on NMEA read at the wrong speed (through a
/// model of a serial line) and on a binary protocol.
@Suite("no NMEA sentence at this speed")
struct LineSpeedCheckTests {
    static let nmea = Array(
        FileManager.default.contents(atPath: RepositoryPaths.track("nmea/gpsd-haicom-305N-stationary-then-moving.nmea"))!)

    static let firstSentence = nmea.indices.first { nmea[$0] == UInt8(ascii: "$") }!

    @Test("NMEA in reads of any size: it finds a sentence and never speaks")
    func nmeaIsQuiet() {
        var random = SeededRandom(seed: SeededRandom.testSeed(default: 0x5EED))
        for _ in 0..<50 {
            var check = LineSpeedCheck(baud: 4800, limit: 1024)
            // From anywhere in a sentence, after the file's comments.
            var offset = Self.firstSentence + Int(random.next() % 400)
            let start = offset
            while offset < Self.nmea.count, !check.isDone {
                let size = 1 + Int(random.next() % 64)
                let chunk = Array(Self.nmea[offset..<min(offset + size, Self.nmea.count)])
                let spoke = check.take(chunk)
                #expect(!spoke)
                offset += size
            }
            #expect(check.isDone && check.bytesSeen < 300, "\(check.bytesSeen) bytes from \(start)")
        }
        // Without checksums, a line of printable text from $ is a sentence too.
        var plain = LineSpeedCheck(baud: 4800, limit: 1024)
        let spoke = plain.take(Array("\u{1}\u{2}$GPGGA,123519,4807.038,N\r\n".utf8))
        #expect(!spoke && plain.isDone)
    }

    @Test(
        "NMEA sent at one speed and read at another is garbage to the decoder, and it says so once",
        arguments: [(9600, 4800), (4800, 9600), (38400, 4800), (115200, 9600), (4800, 38400)])
    func wrongSpeed(sent: Int, read: Int) throws {
        let received = SerialLine.receive(Self.nmea, sentAt: Double(sent), readAt: Double(read))
        #expect(received.count >= 1024, "\(received.count) bytes came through")
        var check = LineSpeedCheck(baud: read, limit: 1024)
        let spoke = stride(from: 0, to: received.count, by: 100).filter { start in
            check.take(Array(received[start..<min(start + 100, received.count)]))
        }
        #expect(spoke.count == 1 && check.bytesSeen == 1024)
        // What a person would see otherwise: no fix, only garbage.
        var batch = FeedBatch()
        let decoder = NMEADecoder()
        received.withUnsafeBytes { decoder.decode($0, into: &batch) }
        decoder.finish(into: &batch)
        #expect(batch.fixes.isEmpty)
    }

    @Test("the model of the line gives the bytes back when both ends agree")
    func modelAgrees() {
        for rate in [4800.0, 9600, 115200] {
            #expect(SerialLine.receive(Self.nmea, sentAt: rate, readAt: rate) == Self.nmea)
        }
    }

    @Test("u-blox UBX frames hold no sentence")
    func binaryProtocol() {
        // NAV-PVT frames (class 0x01, id 0x07, 92 bytes of payload), as a receiver set to UBX only sends them.
        var frames: [UInt8] = []
        var random = SeededRandom(seed: 7)
        for _ in 0..<20 {
            let payload = (0..<92).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            var body: [UInt8] = [0x01, 0x07, 92, 0] + payload
            var a: UInt8 = 0, b: UInt8 = 0
            for byte in body {
                a &+= byte
                b &+= a
            }
            body += [a, b]
            frames += [0xB5, 0x62] + body
        }
        var check = LineSpeedCheck(baud: 9600, limit: 1024)
        let spoke = [check.take(Array(frames.prefix(1000))), check.take(Array(frames.dropFirst(1000))), check.take(frames)]
        #expect(spoke == [false, true, false], "it speaks once, at the 1024th byte")
    }
}

/// A serial line (8N1: a start bit, eight data bits from the lowest, a stop
/// bit; the line idles high) written at one speed and read by a UART at
/// another, which waits for a falling edge and samples each bit in the
/// middle of its time, and delivers what it sampled whatever the stop bit.
enum SerialLine {
    static func receive(_ bytes: [UInt8], sentAt sendRate: Double, readAt readRate: Double) -> [UInt8] {
        var bits: [Bool] = [true, true]
        for byte in bytes {
            bits.append(false)
            for bit in 0..<8 { bits.append(byte >> bit & 1 == 1) }
            bits.append(true)
        }
        bits += [true, true]
        func level(at time: Double) -> Bool {
            let index = Int(time * sendRate)
            return index < bits.count ? bits[index] : true
        }
        var received: [UInt8] = []
        var ready = 0.0
        var edge = 1
        while true {
            // The next falling edge the receiver can see, at the sender's bit boundary.
            while edge < bits.count, !(Double(edge) / sendRate >= ready && bits[edge - 1] && !bits[edge]) { edge += 1 }
            guard edge < bits.count else { return received }
            let start = Double(edge) / sendRate
            var byte: UInt8 = 0
            for bit in 0..<8 where level(at: start + (Double(bit) + 1.5) / readRate) { byte |= 1 << bit }
            received.append(byte)
            ready = start + 9.5 / readRate
        }
    }
}
