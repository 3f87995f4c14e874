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
        let folder = temporaryDirectory("repeat-live-cli")
        let receiver = folder + "/gps", sender = folder + "/feeder"
        let socat = Process()
        socat.executableURL = URL(fileURLWithPath: "/usr/bin/socat")
        socat.arguments = ["pty,raw,echo=0,link=\(receiver)", "pty,raw,echo=0,link=\(sender)"]
        socat.standardError = FileHandle.nullDevice
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/socat"), "install the apt package socat")
        try socat.run()
        defer { kill(socat.processIdentifier, SIGKILL); socat.waitUntilExit() }
        let linked = Date().addingTimeInterval(20)
        while !(FileManager.default.fileExists(atPath: receiver) && FileManager.default.fileExists(atPath: sender)),
            Date() < linked
        {
            usleep(20_000)
        }
        try #require(FileManager.default.fileExists(atPath: receiver), "socat made no pty links")

        let decode = Process()
        decode.executableURL = URL(fileURLWithPath: RepeatSimBinary.path)
        decode.arguments = ["decode", "--device", receiver, "--baud", "9600", "--json"]
        let stdout = Pipe(), stderr = Pipe()
        decode.standardOutput = stdout
        decode.standardError = stderr
        let received = LockedData(), diagnostics = LockedData()
        stdout.fileHandleForReading.readabilityHandler = { received.append($0.availableData) }
        stderr.fileHandleForReading.readabilityHandler = { diagnostics.append($0.availableData) }
        try decode.run()
        defer {
            if decode.isRunning { kill(decode.processIdentifier, SIGKILL) }
            decode.waitUntilExit()
            stdout.fileHandleForReading.readabilityHandler = nil
            stderr.fileHandleForReading.readabilityHandler = nil
        }
        // Wait until the device is open, then send three epochs; the third closes the second.
        let connected = Date().addingTimeInterval(20)
        while !String(decoding: diagnostics.get(), as: UTF8.self).contains("connected to"), Date() < connected {
            usleep(20_000)
        }
        let feeder = try #require(FileHandle(forWritingAtPath: sender))
        for second in 19...21 {
            let body = "GPRMC,1235\(second),A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"
            let checksum = body.utf8.reduce(UInt8(0), ^)
            feeder.write(Data("$\(body)*\(String(format: "%02X", checksum))\r\n".utf8))
            usleep(50_000)
        }
        let deadline = Date().addingTimeInterval(20)
        while String(decoding: received.get(), as: UTF8.self).split(separator: "\n").count < 2, Date() < deadline {
            usleep(20_000)
        }
        let lines = String(decoding: received.get(), as: UTF8.self).split(separator: "\n")
        #expect(lines.count >= 2, "stderr: \(String(decoding: diagnostics.get(), as: UTF8.self))")
        #expect(lines.first == #"{"time":"1994-03-23T12:35:19Z","lat":48.1173,"lon":11.516666666666667,"speed":11.523555555555555,"course":84.4}"#)
        #expect(lines.dropFirst().first?.hasPrefix(#"{"time":"1994-03-23T12:35:20Z""#) == true)
    }
}
