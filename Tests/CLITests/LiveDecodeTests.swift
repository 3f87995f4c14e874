import Foundation
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
        for second in 19...21 {
            feeder.write(Data(nmeaSentence("GPRMC,1235\(second),A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W").utf8))
            usleep(50_000)
        }
        try? waitUntil("two fixes") { decode.outputText.split(separator: "\n").count >= 2 }
        let lines = decode.outputText.split(separator: "\n")
        #expect(lines.count >= 2, "stderr: \(decode.diagnosticsText)")
        #expect(lines.first == #"{"time":"1994-03-23T12:35:19Z","lat":48.1173,"lon":11.516666666666667,"speed":11.523555555555555,"course":84.4}"#)
        #expect(lines.dropFirst().first?.hasPrefix(#"{"time":"1994-03-23T12:35:20Z""#) == true)
    }
}
