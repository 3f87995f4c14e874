import FeedParsing
import Foundation
import GeoCore
import Glibc
import TestSupport
import Testing

/// `decode --device` end to end: the built binary reads a socat
/// pseudo-terminal as it would a USB GPS receiver (apt: socat).
@Suite("repeat-sim decode --device")
struct LiveDecodeTests {
    @Test("fixes written to the other end of a socat pty pair come out as JSON lines")
    func serialDevice() throws {
        let pair = try SocatPair(label: "repeat-live-cli")
        defer { pair.stop() }
        let decode = try RunningRepeatSim(["decode", "--device", pair.receiver, "--baud", "9600", "--json"])
        defer { decode.stop() }
        // Wait until the device is open, then send three epochs; the third closes the second.
        try waitUntil("the device to open") { decode.diagnosticsText.contains("connected to") }
        let feeder = try #require(FileHandle(forWritingAtPath: pair.sender))
        var encoder = NMEAEncoder(sentences: .rmc)
        for second in 19...21 {
            // 1994-03-23T12:35:19Z and on, in Munich at 22.4 knots
            let fix = Fix(
                time: Timestamp(nanoseconds: Int64(764_426_100 + second) * 1_000_000_000),
                coordinate: Coordinate(latitude: 48.1173, longitude: 11 + 31.0 / 60), speed: 22.4 * 1852 / 3600, course: 84.4)
            var bytes: [UInt8] = []
            encoder.append(fix, valid: true, to: &bytes)
            feeder.write(Data(bytes))
            usleep(50_000)
        }
        try? waitUntil("two fixes") { decode.outputText.split(separator: "\n").count >= 2 }
        let lines = decode.outputText.split(separator: "\n")
        #expect(lines.count >= 2, "stderr: \(decode.diagnosticsText)")
        #expect(
            lines.first
                == #"{"time":"1994-03-23T12:35:19Z","lat":48.1173,"lon":11.516666667,"speed":11.523556,"course":84.4}"#
        )
        #expect(lines.dropFirst().first?.hasPrefix(#"{"time":"1994-03-23T12:35:20Z""#) == true)

        // Ctrl-C ends it as it ends live: the epoch it held, then the summary, status 0.
        decode.send(SIGINT)
        try waitUntil("decode to exit after SIGINT") { !decode.isRunning }
        #expect(decode.status == 0, "\(decode.diagnosticsText)")
        #expect(decode.outputText.split(separator: "\n").count == 3, "\(decode.outputText)")
        #expect(decode.diagnosticsText.contains("\(pair.receiver) at 9600 baud (nmea): 3 fixes"), "\(decode.diagnosticsText)")
    }
}
