import FeedParsing
import Foundation
import GeoCore
import Geofencing

/// A fleet in the city box as one CSV feed (`time,lat,lon,device`): every
/// device walks its own random walk (1 Hz steps, seed 31), and the file
/// holds the fleet's fixes second by second, devices in turn, as a
/// tracker back end exports them. The same number of fixes spread over
/// more devices is the devices scaling workload.
public enum FleetFile {
    /// The path of the fleet of `devices` devices with `fixes` fixes in
    /// all, in the temporary folder, written on first use.
    public static func path(devices: Int, fixes: Int) throws -> String {
        let encoder = CSVEncoder(columns: [.time, .lat, .lon, .device])
        return try CachedFeedFile.path("repeat-bench-fleet-\(devices)-\(fixes).csv", encoder: encoder) { append in
            let perDevice = max(1, fixes / devices)
            var walk = GeofenceWorkload(layout: .city, seed: 31)
            let tracks = walk.walks(count: perDevice * devices, tracks: devices)
            for second in 0..<perDevice {
                let time = Timestamp(nanoseconds: (ReplayWorkload.start + Int64(second)) * 1_000_000_000)
                for device in 0..<devices {
                    try append(Fix(time: time, coordinate: tracks[device * perDevice + second], device: "vehicle-\(device)"))
                }
            }
        }
    }
}
