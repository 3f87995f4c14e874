import FeedParsing
import Foundation
import GeoCore
import Simulation

/// One file per device in a folder, `FOLDER/DEVICE.EXT`, each with its own
/// encoder: `generate`'s feed or truth for several devices in a format
/// that has no device column (NMEA, GPX, KML, FIT), or for anyone who
/// wants a file each. What a device's file holds is written a megabyte at
/// a time.
struct DeviceFiles {
    private let writers: [HashedFileWriter]
    private var encoders: [any FeedEncoder]
    private var buffers: [[UInt8]]
    /// The file of each device's name.
    private let slots: [String: Int]

    /// Creates the folder if need be and a file for each of `devices`
    /// (named `deviceN` when they have no name), each opened by `encoder`.
    /// - Throws: ``RunError`` when a file cannot be created.
    init(folder: String, devices: [SimulatedDevice], encoder: any FeedEncoder, hashing: Bool) throws {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let names = devices.enumerated().map { $1.name ?? "device\($0 + 1)" }
        let fileExtension = GenerateOutputs.fileExtension(encoder.format)
        writers = try names.map {
            try HashedFileWriter(path: (folder as NSString).appendingPathComponent("\($0).\(fileExtension)"), hashing: hashing)
        }
        encoders = names.map { _ in encoder }
        buffers = names.map { _ in [] }
        slots = Dictionary(uniqueKeysWithValues: devices.enumerated().map { ($1.name ?? "", $0) })
        for index in names.indices { encoders[index].appendHeader(to: &buffers[index]) }
    }

    /// Appends `fix` to its device's file; `true` when a megabyte of it
    /// was written out.
    mutating func append(_ fix: Fix, valid: Bool) throws -> Bool {
        let slot = slots[fix.device ?? ""] ?? 0
        encoders[slot].append(fix, valid: valid, to: &buffers[slot])
        guard buffers[slot].count >= 1 << 20 else { return false }
        try writers[slot].write(buffers[slot])
        buffers[slot].removeAll(keepingCapacity: true)
        return true
    }

    /// Ends every file (the encoders' footers, and the start a FIT header
    /// rewrites) and closes it: the outputs, in the devices' order.
    mutating func finish(role: String) throws -> [GenerateSummary.Output] {
        try writers.indices.map { index in
            encoders[index].appendFooter(to: &buffers[index])
            try writers[index].write(buffers[index])
            if let start = encoders[index].rewrittenStart { try writers[index].overwriteStart(start) }
            return GenerateSummary.Output(
                role: role, path: writers[index].path, bytes: writers[index].byteCount, sha256: writers[index].close())
        }
    }
}
