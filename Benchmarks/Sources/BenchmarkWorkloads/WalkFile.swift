import FeedParsing
import Foundation
import GeoCore
import Geofencing

/// A 1 Hz random walk in the city box (seed 21, starting at
/// ``ReplayWorkload/start``), written by FeedParsing's encoders as a feed
/// file in each format Repeat decodes, shaped like ../shared/bench/gen_workload.py's
/// files: NMEA as an RMC and a GGA per fix, GPX 1.1 track points with `ele`
/// and `time`, CSV `time,lat,lon`, gpsd JSON TPV reports, and KML
/// `gx:Track`s with heights.
public enum WalkFile {
    /// A feed format.
    public enum Format: String, CaseIterable, Sendable {
        case nmea, gpx, csv, gpsd, kml
    }

    /// The path of the walk of `fixes` fixes in `format`, in the temporary
    /// folder, written on first use (70–150 bytes per fix). The name says
    /// which encoding wrote it, so a file from an older layout is not reused.
    public static func path(_ format: Format, fixes: Int) throws -> String {
        try CachedFeedFile.path("repeat-bench-walk-encoded-\(fixes).\(format.rawValue)", encoder: encoder(format)) { append in
            var walk = GeofenceWorkload(layout: .city, seed: 21)
            for (second, point) in walk.walks(count: fixes, tracks: 1).enumerated() {
                let time = Timestamp(nanoseconds: (ReplayWorkload.start + Int64(second)) * 1_000_000_000)
                try append(fix(at: point, time: time, for: format))
            }
        }
    }

    /// A walk point with the fields `format`'s files carry.
    private static func fix(at point: Coordinate, time: Timestamp, for format: Format) -> Fix {
        switch format {
        case .nmea: return Fix(time: time, coordinate: point, elevation: 35.0, speed: 10.0, course: 90.0, hdop: 0.9)
        case .gpx, .kml: return Fix(time: time, coordinate: point, elevation: 35.2)
        case .csv: return Fix(time: time, coordinate: point)
        case .gpsd:
            return Fix(
                time: time, coordinate: point, elevation: 35.2, speed: 10.0, course: 90.0, accuracy: 5.3, device: "/dev/ttyUSB0")
        }
    }

    private static func encoder(_ format: Format) -> any FeedEncoder {
        switch format {
        case .nmea: return NMEAEncoder(sentences: [.rmc, .gga])
        case .gpx: return GPXEncoder(creator: "Repeat benchmarks")
        case .csv: return CSVEncoder(columns: [.time, .lat, .lon])
        case .gpsd: return GPSDEncoder()
        case .kml: return KMLEncoder(documentName: "Repeat benchmarks")
        }
    }
}
