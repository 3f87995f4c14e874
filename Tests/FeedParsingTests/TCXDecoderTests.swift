import FeedParsing
import Foundation
import GeoCore
import TestSupport
import Testing

/// Garmin Training Center files as a feed: what GPSBabel reads from its
/// own TCX, and the track points a watch writes without a position.
@Suite("TCX decoder")
struct TCXDecoderTests {
    @Test("GPSBabel's TCX of the Višnjan drive reads as GPSBabel reads it, in any chunking")
    func gpsbabelActivity() throws {
        let path = RepositoryPaths.track("tcx/gpsbabel-visnjan-car.tcx")
        let bytes = try readBytes(path)
        let batch = decode(bytes, format: nil)
        #expect(batch.diagnostics.isEmpty, "\(batch.diagnostics)")
        #expect(batch.fixes.count == 104)
        // GPSBabel writes 6 decimals of the TCX's 7, the heights as they are, speed to 2 decimals.
        try expectGPSBabelReading(batch.fixes, at: path + ".expected.gpsbabel.unicsv", heightTolerance: 0)
        // The GPX it was written from: the same times, positions to the TCX's 7 decimals.
        let gpx = decode(try readBytes(RepositoryPaths.track("gpx/gpxpy-visnjan-car.gpx")), format: .gpx).fixes
        #expect(batch.fixes.map(\.time) == gpx.map(\.time))
        for size in [1, 7, 64, 4096] {
            let chunked = decode(bytes, format: .tcx, chunkSizes: repeatElement(size, count: bytes.count))
            #expect(chunked.fixes == batch.fixes, "chunks of \(size) bytes")
        }
    }

    @Test("a watch's track points without a position are counted; a course's are fixes; bad fields are located")
    func watchPoints() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"
              xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2">
              <Activities><Activity Sport="Running"><Id>2024-05-01T10:00:00Z</Id>
                <Lap StartTime="2024-05-01T10:00:00Z"><TotalTimeSeconds>3</TotalTimeSeconds><Track>
                  <Trackpoint><Time>2024-05-01T10:00:00Z</Time><HeartRateBpm><Value>120</Value></HeartRateBpm></Trackpoint>
                  <Trackpoint><Time>2024-05-01T10:00:01.5Z</Time>
                    <Position><LatitudeDegrees>52.52</LatitudeDegrees><LongitudeDegrees>13.405</LongitudeDegrees></Position>
                    <AltitudeMeters>34.2</AltitudeMeters><DistanceMeters>0.0</DistanceMeters>
                    <Extensions><ns3:TPX><ns3:Speed>2.75</ns3:Speed><ns3:RunCadence>80</ns3:RunCadence></ns3:TPX></Extensions>
                  </Trackpoint>
                  <Trackpoint><Time>2024-05-01T10:00:02Z</Time>
                    <Position><LatitudeDegrees>north</LatitudeDegrees><LongitudeDegrees>13.405</LongitudeDegrees></Position>
                  </Trackpoint>
                  <Trackpoint><Time>soon</Time>
                    <Position><LatitudeDegrees>52.53</LatitudeDegrees><LongitudeDegrees>13.406</LongitudeDegrees></Position>
                  </Trackpoint>
                  <Trackpoint><Position><LatitudeDegrees>52.54</LatitudeDegrees></Position></Trackpoint>
                </Track></Lap></Activity></Activities>
              <Courses><Course><Name>Loop</Name><Track>
                <Trackpoint><Time>2024-05-02T08:00:00Z</Time>
                  <Position><LatitudeDegrees>-33.9</LatitudeDegrees><LongitudeDegrees>151.2</LongitudeDegrees></Position>
                </Trackpoint></Track>
                <CoursePoint><Name>Turn</Name><Time>2024-05-02T08:00:00Z</Time></CoursePoint>
              </Course></Courses>
            </TrainingCenterDatabase>
            """
        let decoder = TCXDecoder()
        let batch = decoder.decodeAll(Array(text.utf8))
        #expect(FeedSniffer.detect(Array(text.utf8), isComplete: true) == .tcx)
        #expect(batch.fixes.map(\.coordinate.latitude) == [52.52, 52.53, -33.9])
        #expect(batch.fixes.map { $0.time.map(RFC3339.format) } == ["2024-05-01T10:00:01.5Z", nil, "2024-05-02T08:00:00Z"])
        #expect(batch.fixes[0].elevation == 34.2 && batch.fixes[0].speed == 2.75)
        #expect(
            batch.diagnostics.map(\.description) == [
                "line 13: badField: <LatitudeDegrees> 'north' is not a number; the point is skipped",
                "line 15: badField: <Time> 'soon' is not an RFC 3339 time; the point is kept without it",
                "line 18: missingField: <Trackpoint> has a <Position> without <LongitudeDegrees>; skipped",
            ])
        #expect(decoder.statistics.ignored == ["Trackpoint without a position": 1, "CoursePoint": 1])
    }
}
