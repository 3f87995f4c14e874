import Evaluation
import Foundation
import GeoCore
import Geofencing
import Testing

@testable import Pipeline

/// The report's detail reads only what its ``ReportPlan`` gathered of a
/// feed and its truth: every lookup it makes must answer as on the whole
/// feed and truth. Checked on a noisy seeded fleet whose fixes come out of
/// time order, with repeated times, decimated, and a device without truth.
@Suite struct ReportEvidenceTests {
    static let start = 1_740_823_200.0
    static let centre = Coordinate(latitude: 52.5, longitude: 13.4)
    static let regions = [
        Region(id: "shop", shape: .circle(centre: centre, radius: 50)),
        Region(
            id: "park", shape: .circle(centre: Geodesy.destination(from: centre, bearing: 60, metres: 160), radius: 40)),
    ]

    /// Six devices wandering around the two regions for an hour, a truth
    /// point a second; their fixes every second but some, with noise of up
    /// to 40 m, accuracies from 3 to 90 m, one fix in 40 swapped with the
    /// device's fifth after it, and one in five at the same second as the one before; a
    /// second receiver on dev1 (`dev1.nmea`, scored against dev1's truth);
    /// and a device with fixes but no truth.
    static func fleet() -> (feed: [Fix], truth: [Fix]) {
        var random = SplitMix64(seed: 17)
        var truth: [[Fix]] = []
        for device in 0..<6 {
            var position = Geodesy.destination(from: centre, bearing: Double(device) * 60, metres: 120)
            var heading = Double(device) * 60 + 180
            var points: [Fix] = []
            for second in 0..<3600 {
                heading += random.uniform(-20, 20)
                // Turn back towards the regions when far from them.
                if Geodesy.distance(position, centre) > 220 { heading = Geodesy.bearing(from: position, to: centre) }
                position = Geodesy.destination(from: position, bearing: heading, metres: random.uniform(0, 3))
                points.append(
                    Fix(
                        time: Timestamp(secondsSince1970: start + Double(second)), coordinate: position,
                        device: "dev\(device)"))
            }
            truth.append(points)
        }
        var feed: [Fix] = []
        for second in 0..<3600 {
            for device in 0..<8 {
                guard random.uniform(0, 1) > 0.1 else { continue }
                let point = truth[device == 7 ? 1 : device % 6][second]
                let noise = random.uniform(0, 40)
                var fix = Fix(
                    time: point.time,
                    coordinate: Geodesy.destination(from: point.coordinate, bearing: random.uniform(0, 360), metres: noise),
                    accuracy: random.uniform(3, 90),
                    device: device == 6 ? "stranger" : device == 7 ? "dev1.nmea" : point.device)
                if random.uniform(0, 1) < 0.2, let previous = feed.last(where: { $0.device == fix.device }) {
                    fix.time = previous.time
                }
                feed.append(fix)
            }
        }
        for index in stride(from: 0, to: feed.count, by: 40) {
            let later = feed.indices.dropFirst(index + 1).lazy.filter { feed[$0].device == feed[index].device }
            guard let fifth = later.dropFirst(4).first else { continue }
            feed.swapAt(index, fifth)
        }
        return (feed, truth.flatMap { $0 }.sorted { $0.time! < $1.time! })
    }

    /// Every fix delivered (fixes at the same second included), and one
    /// every 2 s.
    @Test(
        "what the plan gathers answers every lookup of the detail as the whole feed and truth do",
        arguments: [0.0, 2.0])
    func gatheredEvidenceAnswersAsTheWholeFeed(interval: Double) throws {
        let (feed, truthFixes) = Self.fleet()
        var builder = TruthTrackBuilder()
        for point in truthFixes { builder.add(point) }
        let tracks = builder.finish()
        let subject = EvaluationSubject(fixes: feed, truth: .tracks(tracks))
        let evaluation = FeedEvaluation(regions: Self.regions, tasks: [], reminderSettings: .init())
        var setting = EvaluationSetting(
            geofence: GeofenceSettings(confirm: 3, maxAccuracy: 40), reorderSeconds: 5, monitorLimit: nil)
        setting.interval = interval
        let window = MatchWindow(early: 10, late: 60)
        let truth = evaluation.truth(of: subject)
        let detected = evaluation.detect(subject, devices: truth.devices, setting: setting).events
        let plan = ReportPlan(
            evaluation: evaluation, truth: truth, detected: detected, setting: setting, window: window,
            span: EvaluationReporter.span(feed))
        #expect(plan.matching.missedTruth.count >= 5, "\(plan.matching.missedTruth.count) misses")
        #expect(plan.matching.unmatchedDetections.count >= 5, "\(plan.matching.unmatchedDetections.count) false")

        let (fixes, points) = plan.gatherers()
        for fix in feed { fixes.add(fix) }
        for fix in truthFixes { points.add(fix) }
        let (keptFixes, tallies, sketches) = fixes.finish()
        let (keptTracks, near) = points.finish()

        // The whole delivered feed, as the detector had it.
        var decimator = IntervalDecimator(seconds: setting.interval)
        var delivered: [Fix] = []
        for fix in feed where decimator.keeps(fix) && fix.time != nil {
            guard case .some(let device) = truth.devices.truthDevice(of: fix.device) else { continue }
            var named = fix
            named.device = device
            delivered.append(named)
        }
        let whole = DeliveredFixes(delivered), gathered = DeliveredFixes(keptFixes)
        #expect(keptFixes.count < delivered.count / 20, "\(keptFixes.count) of \(delivered.count) fixes kept")
        func same(_ a: Fix?, _ b: Fix?) -> Bool {
            a?.time == b?.time && a?.coordinate == b?.coordinate && a?.accuracy == b?.accuracy && a?.device == b?.device
        }
        var lookups = 0
        for (device, times) in plan.fixLookups {
            for time in times {
                let at = Timestamp(nanoseconds: time)
                #expect(same(gathered.fix(of: device, at: at), whole.fix(of: device, at: at)), "\(device ?? "") \(time)")
                lookups += 1
            }
        }
        #expect(lookups > 50)
        // What a missed entry's cause counts: the fixes from the window's
        // start to the next true exit there (at most an hour on), in time
        // order (of two at the same time, the earlier delivered first); a
        // missed exit's: to the window's end. Counted here on every
        // delivered fix.
        let deliveredInOrder = delivered.indices.sorted { (delivered[$0].time!, $0) < (delivered[$1].time!, $1) }
            .map { delivered[$0] }
        var rows = 0
        for index in plan.matching.missedTruth {
            let event = truth.events[index]
            let fence = try #require(Self.regions.first { $0.id == event.region }).padded(by: setting.padding).shape
            let tally = try #require(tallies[index])
            switch event.kind {
            case .enter:
                let exit = truth.events.filter {
                    $0.kind == .exit && $0.device == event.device && $0.region == event.region && $0.time > event.time
                }.map(\.time).min()
                let reach = event.time.adding(seconds: EvaluationDetail.reach)
                let (from, to) = (event.time.adding(seconds: -window.early), min(exit ?? reach, reach))
                var (inside, accurateInside, run, longest) = (0, 0, 0, 0)
                for fix in deliveredInOrder where fix.device == event.device && fix.time! >= from && fix.time! <= to {
                    let isInside = fence.contains(fix.coordinate)
                    if isInside { inside += 1 }
                    guard (fix.effectiveAccuracy ?? 0) <= setting.geofence.maxAccuracy else { continue }
                    if isInside { accurateInside += 1 }
                    run = isInside ? run + 1 : 0
                    longest = max(longest, run)
                }
                #expect(tally.insideFixes == inside && tally.accurateInside == accurateInside, "\(event)")
                #expect(tally.longestAccurateRun == longest, "\(event)")
                if longest > 1 { rows += 1 }
            case .exit:
                let to = event.time.adding(seconds: window.late)
                let past = deliveredInOrder.filter {
                    $0.device == event.device && $0.time! >= event.time && $0.time! <= to && fence.excess(at: $0.coordinate) > 0
                }
                #expect(tally.insideFixes == past.count, "\(event)")
            }
        }
        #expect(rows >= 3, "\(rows) missed entries with rows of inside fixes")

        let wholeTruth = TruthPositions(tracks), gatheredTruth = TruthPositions(keptTracks)
        #expect(keptTracks.map(\.points.count).reduce(0, +) < truthFixes.count / 10)
        for (device, times) in plan.positionLookups {
            #expect(gatheredTruth.points(of: device).first == wholeTruth.points(of: device).first)
            for time in times {
                let at = Timestamp(nanoseconds: time)
                #expect(gatheredTruth.position(of: device, at: at) == wholeTruth.position(of: device, at: at))
            }
        }

        // The maps: each drawn region's strip counts every fix delivered
        // near it; its dots are an even sample of them.
        #expect(plan.drawn.map(\.id).sorted() == ["park", "shop"])
        for (index, region) in plan.drawn.enumerated() {
            let box = PlaceDrawing.vicinity(of: region)
            let nearby = delivered.filter { box.contains($0.coordinate) }
            #expect(sketches[index].bins.map(\.count).reduce(0, +) == nearby.count)
            let dots = sketches[index].dots
            #expect(dots.count <= PlaceDrawing.dotLimit && dots.count > PlaceDrawing.dotLimit / 2)
            #expect(dots.first?.coordinate == nearby.first?.coordinate)
            #expect(Set(dots.map(\.coordinate.latitude)).isSubset(of: Set(nearby.map(\.coordinate.latitude))))
            #expect(!near[index].isEmpty && near[index].joined().allSatisfy { box.contains($0) })
            #expect(near[index].joined().count <= ReportPlan.pointsPerMap + 6 * 8)
        }
    }

    /// An area around a pole is near every fix beside it, at every
    /// longitude: widening its box must not wrap it into a sliver.
    @Test func theVicinityOfAnAreaAroundAPoleHoldsEveryLongitude() throws {
        let cap = [(-180.0, 89.0), (180, 89), (180, 90), (-180, 90), (-180, 89)].map {
            Coordinate(latitude: $0.1, longitude: $0.0)
        }
        let box = PlaceDrawing.vicinity(of: Region(id: "cap", shape: .area(try Area(polygons: [[cap]]))))
        for longitude in [-180.0, -90, 0, 90, 179.5] {
            #expect(box.contains(Coordinate(latitude: 89.5, longitude: longitude)), "\(longitude)")
            #expect(box.contains(Coordinate(latitude: 88.9995, longitude: longitude)), "\(longitude)")
            #expect(!box.contains(Coordinate(latitude: 88.99, longitude: longitude)), "\(longitude)")
        }
    }
}
