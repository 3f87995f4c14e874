import Foundation
import TestSupport
import Testing

/// One run driver: `decode -`, `live -` and `replay FILE` report the same
/// located diagnostics for the same bad input, including those the decoder
/// only gives at the end of input (a last sentence without its newline,
/// which `live -` used to drop).
@Suite("the same diagnostics from decode, live and replay")
struct DiagnosticsParityTests {
    /// Two good NMEA epochs, then inputs that go wrong in different places.
    static let goodEpochs = """
        $GPRMC,100000.00,A,5231.2000,N,01324.0000,E,0.0,0.0,010325,,,A*59\r
        $GPGGA,100000.00,5231.2000,N,01324.0000,E,1,08,0.9,34.0,M,0.0,M,,*68\r
        $GPRMC,100001.00,A,5231.2100,N,01324.0000,E,0.0,0.0,010325,,,A*59\r
        $GPGGA,100001.00,5231.2100,N,01324.0000,E,1,08,0.9,34.0,M,0.0,M,,*68\r

        """

    static let inputs: [(String, String)] = [
        (
            "a bad checksum on the last sentence, without its newline",
            goodEpochs + "$GPRMC,100002.00,A,5231.2200,N,01324.0000,E,0.0,0.0,010325,,,A*00"
        ),
        (
            "a bad checksum and noise in the middle",
            "$GPRMC,095959.00,A,5231.1900,N,01324.0000,E,0.0,0.0,010325,,,A*11\r\n\u{7}garbage\u{1}\r\n" + goodEpochs
        ),
        ("a truncated last sentence", goodEpochs + "$GPGGA,100002.00,5231.22"),
    ]

    @Test("diagnostics agree", arguments: inputs)
    func sameDiagnostics(label: String, feed: String) throws {
        let folder = temporaryDirectory("repeat-parity")
        let file = folder + "/feed.nmea"
        try feed.write(toFile: file, atomically: true, encoding: .utf8)
        try "id,lat,lon,radius\nshop,52.52,13.40,100\n".write(toFile: folder + "/r.csv", atomically: true, encoding: .utf8)
        let decode = try RepeatSimBinary.run(["decode", "-"], input: feed)
        let live = try RepeatSimBinary.run(
            ["live", "-", "--regions", folder + "/r.csv", "--db", folder + "/t.sqlite"], input: feed)
        let replay = try RepeatSimBinary.run(["replay", file, "--regions", folder + "/r.csv"])
        let expected = diagnostics(decode.stderr, feed: "<stdin>")
        #expect(!expected.isEmpty, "\(label): decode reported nothing")
        #expect(diagnostics(live.stderr, feed: "<stdin>") == expected, "\(label)")
        #expect(diagnostics(replay.stderr, feed: file) == expected, "\(label)")
        #expect([decode.status, live.status, replay.status] == [0, 0, 0])
    }

    /// The located diagnostic lines (`FEED:LINE: code: message`), with the
    /// feed's name taken off.
    private func diagnostics(_ stderr: String, feed: String) -> [String] {
        stderr.split(separator: "\n").filter { $0.hasPrefix(feed + ":") }.map { String($0.dropFirst(feed.count)) }
    }
}
