import Pipeline
import Testing

/// The pure parts of the live sources: backoff, silence, gpsd addresses.
@Suite("Live source policies")
struct LivePolicyTests {
    @Test("backoff grows by the factor from the initial delay up to the cap")
    func backoffGrowsToCap() {
        let policy = BackoffPolicy(initialDelay: .milliseconds(500), factor: 2, maximumDelay: .seconds(30))
        let delays = (1...9).map { policy.delay(afterFailures: $0) }
        #expect(
            delays == [
                .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(30), .seconds(30),
                .seconds(30),
            ])
        #expect(policy.delay(afterFailures: 10_000) == .seconds(30))
        let gentle = BackoffPolicy(initialDelay: .seconds(1), factor: 1.5, maximumDelay: .seconds(3))
        #expect(
            (1...4).map { gentle.delay(afterFailures: $0) } == [
                .seconds(1), .milliseconds(1500), .milliseconds(2250), .seconds(3),
            ])
        let constant = BackoffPolicy(initialDelay: .seconds(2), factor: 1, maximumDelay: .seconds(2))
        #expect(constant.delay(afterFailures: 7) == .seconds(2))
    }

    @Test("a success resets the run of failures")
    func backoffResetsAfterSuccess() {
        var backoff = Backoff(policy: BackoffPolicy(initialDelay: .milliseconds(100), factor: 3, maximumDelay: .seconds(1)))
        #expect(backoff.recordFailure() == .milliseconds(100))
        #expect(backoff.recordFailure() == .milliseconds(300))
        #expect(backoff.recordFailure() == .milliseconds(900))
        #expect(backoff.recordFailure() == .seconds(1))
        #expect(backoff.consecutiveFailures == 4)
        backoff.recordSuccess()
        #expect(backoff.consecutiveFailures == 0)
        #expect(backoff.recordFailure() == .milliseconds(100))
    }

    @Test("silence warnings come at each threshold and stop when data arrives")
    func silenceWarnings() {
        let start = ContinuousClock.now
        var monitor = SilenceMonitor(threshold: .seconds(10), start: start)
        #expect(monitor.warningDue(at: start + .seconds(9)) == nil)
        #expect(monitor.warningDue(at: start + .seconds(10)) == .seconds(10))
        #expect(monitor.warningDue(at: start + .seconds(15)) == nil)
        #expect(monitor.warningDue(at: start + .seconds(20)) == .seconds(20))
        // A late check reports the whole silence once and does not pile up the missed ones.
        #expect(monitor.warningDue(at: start + .seconds(55)) == .seconds(55))
        #expect(monitor.warningDue(at: start + .seconds(59)) == nil)
        #expect(monitor.nextWarning == start + .seconds(60))
        monitor.noteActivity(at: start + .seconds(58))
        #expect(monitor.warningDue(at: start + .seconds(60)) == nil)
        #expect(monitor.warningDue(at: start + .seconds(68)) == .seconds(10))
    }

    @Test(
        "gpsd addresses in every accepted spelling",
        arguments: [
            ("localhost", "localhost", 2947),
            ("gps.local:2948", "gps.local", 2948),
            ("127.0.0.1:2947", "127.0.0.1", 2947),
            ("[::1]:2950", "::1", 2950),
            ("[::1]", "::1", 2947),
            ("::1", "::1", 2947),
            ("fe80::1%eth0", "fe80::1%eth0", 2947),
            (":2948", "localhost", 2948),
        ])
    func gpsdEndpointParses(text: String, host: String, port: Int) throws {
        let endpoint = try GPSDEndpoint(parsing: text)
        #expect(endpoint.host == host)
        #expect(endpoint.port == port)
        #expect(try GPSDEndpoint(parsing: endpoint.description) == endpoint, "description round-trips")
    }

    @Test(
        "bad gpsd addresses say what is wrong",
        arguments: [
            ("localhost:0", "'0' is not a TCP port"),
            ("localhost:65536", "'65536' is not a TCP port"),
            ("localhost:http", "'http' is not a TCP port"),
            ("localhost:", "'' is not a TCP port"),
            ("[::1", "no ']' closes it"),
            ("[::1]2947", "expected ':PORT' after ']'"),
            ("[]:2947", "the brackets hold no address"),
        ])
    func gpsdEndpointRejects(text: String, problem: String) {
        #expect {
            try GPSDEndpoint(parsing: text)
        } throws: { error in
            let message = (error as? GPSDEndpoint.ParseError)?.description ?? ""
            return message.contains(problem) && message.contains("'\(text)'")
        }
    }

    @Test("status lines read well")
    func statusDescriptions() {
        let retry = LiveSourceStatus.retrying(
            endpoint: "/dev/ttyUSB0", failures: 3, delay: .seconds(2), reason: "open: No such file or directory")
        #expect(retry.description == "retrying /dev/ttyUSB0 in 2 s (3 failures in a row): open: No such file or directory")
        #expect(
            LiveSourceStatus.silent(endpoint: "gpsd at localhost:2947", duration: .milliseconds(10_400)).description
                == "no data from gpsd at localhost:2947 for 10 s")
        #expect(
            LiveSourceStatus.retrying(endpoint: "x", failures: 1, delay: .milliseconds(500), reason: "r").description
                == "retrying x in 0.5 s (1 failure): r")
    }
}
