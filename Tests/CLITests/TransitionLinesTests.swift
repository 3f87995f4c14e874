import Foundation
import TestSupport
import Testing

/// One transition is one line, naming the tasks it concerns.
@Suite("transition lines")
struct TransitionLinesTests {
    @Test("two tasks at one pharmacy: each enter and exit once, with both tasks")
    func sharedPlaceGivesOneLinePerTransition() throws {
        let result = try RepeatSimBinary.run([
            "replay", RepositoryPaths.track("cat-medicine/drives.gpx"), "--tasks",
            RepositoryPaths.track("cat-medicine/scenario.json"), "--transitions", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let transitions = result.lines.filter { $0.contains("\"kind\":\"enter\"") || $0.contains("\"kind\":\"exit\"") }
        #expect(transitions.count == 6, "three drives past the pharmacy: \(transitions)")
        #expect(Set(transitions).count == transitions.count, "no line twice")
        for line in transitions {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["tasks"] as? [String] == ["cat-medicine", "cat-medicine-fixed"], "\(line)")
        }
        // The reminders are those of before: the shared place asks both gates.
        #expect(result.lines.filter { $0.contains("\"kind\":\"location\"") }.count == 1)
        #expect(result.lines.filter { $0.contains("\"kind\":\"due\"") }.count == 2)
    }

    @Test("regions without tasks: transitions carry no tasks field")
    func regionsOnlyHaveNoTasks() throws {
        let result = try RepeatSimBinary.run([
            "replay", RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx"), "--regions",
            RepositoryPaths.track("visnjan-errands/places.csv"), "--transitions", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.lines.isEmpty && result.lines.allSatisfy { !$0.contains("\"tasks\"") }, "\(result.stdout)")
    }
}
