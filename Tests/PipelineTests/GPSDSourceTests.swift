import FeedParsing
import Foundation
import Glibc
import Pipeline
import TestSupport
import Testing

/// The gpsd source against a real gpsd, started by gpsfake on a free local
/// port and replaying a corpus log (apt: gpsd, gpsd-clients, python3-gps).
///
/// gpsfake replays the log in a loop (no `-1`): gpsd opens the fake device
/// only when a client watches and then flushes what was queued, so a single
/// pass could be over before the watch starts; with the loop, every fix of
/// the log comes round again.
@Suite("gpsd source against gpsfake", .serialized)
struct GPSDSourceTests {
    static let log = "bt451.log"
    static let options = LiveSourceOptions(
        backoff: BackoffPolicy(initialDelay: .milliseconds(50), factor: 2, maximumDelay: .milliseconds(400)),
        silenceThreshold: nil
    )

    @Test("TPV reports carry the log's fixes; killing gpsd is a disconnect, then retries", .needsSharedCorpus)
    func tpvFromGpsfake() async throws {
        let reference = try GPSDReference(log: Self.log)
        let folder = try TemporaryFolder(prefix: "repeat-gpsfake")
        defer { folder.remove() }
        let port = try freeLocalPort()
        let arguments = ["gpsfake", "-P", "\(port)", "-q", "-c", "0.02", RepositoryPaths.corpus + "/nmea/gpsd/" + Self.log]
        try await withChildProcess(arguments, aptPackage: "gpsd gpsd-clients python3-gps", logPath: folder.path + "/gpsfake.out")
        {
            gpsfake in
            let source = GPSDSource(endpoint: GPSDEndpoint(host: "127.0.0.1", port: port), options: Self.options)
            let recorder = EventRecorder(source.events())
            do {
                // Three TPV reports at fixes of the log show the whole path working; which
                // fix comes first depends on when gpsd starts reading the looped log.
                try await recorder.waitUntil("three TPV reports (gpsfake said: \(gpsfake.output))", timeout: .seconds(90)) {
                    events in
                    Self.positions(in: events).count >= 3
                }
                let positions = Self.positions(in: recorder.events)
                let foreign = positions.filter { !reference.isLogFix($0) }
                #expect(foreign.isEmpty, "TPV positions that are not in the log's reference fixes: \(foreign.prefix(5))")
                let text = String(decoding: recorder.bytes, as: UTF8.self)
                #expect(text.hasPrefix(#"{"class":"VERSION""#), "gpsd greets with VERSION")
                #expect(text.contains(#"{"class":"WATCH","enable":true,"json":true"#), "gpsd acknowledged the watch")

                await gpsfake.stop()
                try await recorder.waitUntil("a disconnect and a retry after gpsfake was killed") { events in
                    let statuses = events.statuses
                    guard let lost = statuses.firstIndex(where: \.isDisconnected) else { return false }
                    return statuses[lost...].contains { $0.retryDelay != nil }
                }
                #expect(recorder.statuses.first?.isConnected == true || recorder.statuses.contains(where: \.isConnected))
                await recorder.stop()
            } catch {
                await recorder.stop()
                throw error
            }
        }
    }

    @Test("a port where nothing listens is refused, retried and reported")
    func refusedIsRetried() async throws {
        let port = try freeLocalPort()
        var options = Self.options
        options.maximumConsecutiveFailures = 3
        let recorder = EventRecorder(GPSDSource(endpoint: GPSDEndpoint(host: "127.0.0.1", port: port), options: options).events())
        let ending = try await recorder.waitForEnd()
        let retries = recorder.statuses.compactMap { status -> String? in
            if case .retrying(_, _, _, let reason) = status { reason } else { nil }
        }
        #expect(retries.count == 2)
        #expect(retries.allSatisfy { $0.contains("refused") }, "\(retries)")
        guard case .failure(let error) = ending, case .gaveUp(let endpoint, 3, _)? = error as? LiveSourceError else {
            Issue.record("expected gaveUp after 3 attempts, got \(ending)")
            return
        }
        #expect(endpoint == "gpsd at 127.0.0.1:\(port)")
    }

    /// The positions of the TPV reports among the complete lines received.
    static func positions(in events: [LiveSourceEvent]) -> [Position] {
        let bytes = events.flatMap { event -> [UInt8] in if case .bytes(let chunk) = event { chunk } else { [] } }
        return bytes.split(separator: UInt8(ascii: "\n")).dropLast().compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                object["class"] as? String == "TPV",
                let lat = object["lat"] as? Double, let lon = object["lon"] as? Double
            else { return nil }
            return Position(lat: lat, lon: lon)
        }
    }
}

/// A latitude/longitude pair in degrees.
struct Position: Equatable, CustomStringConvertible {
    let lat: Double
    let lon: Double

    /// Whether the two agree to 1e-6° (about 0.1 m): gpsd rounds what it prints.
    func matches(_ other: Position) -> Bool { abs(lat - other.lat) < 1e-6 && abs(lon - other.lon) < 1e-6 }

    var description: String { "(\(lat), \(lon))" }
}

/// The positions of a corpus log, as Repeat's own NMEA decoder reads them
/// (independent of the installed gpsd's version, whose rounding and epoch
/// choices differ from the `.chk` files of newer gpsd releases).
struct GPSDReference {
    let fixes: [Position]

    init(log: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.corpus + "/nmea/gpsd/" + log)))
        fixes = makeFeedDecoder(format: .nmea, options: FeedDecodingOptions()).decodeAll(bytes).fixes.map {
            Position(lat: $0.coordinate.latitude, lon: $0.coordinate.longitude)
        }
    }

    func isLogFix(_ position: Position) -> Bool { fixes.contains { $0.matches(position) } }
}
