import FeedParsing
import Foundation
import GeoCore

/// A feed file in the temporary folder, written once through an encoder
/// and reused by later runs (written beside, then moved into place, so a
/// run stopped half-way leaves no partial file under the name).
enum CachedFeedFile {
    /// The path of `name` in the temporary folder; when it is not there,
    /// `fixes` hands every fix to the function it is given, which encodes
    /// it with `encoder` into the file, 4 MiB at a time.
    static func path(
        _ name: String, encoder: any FeedEncoder, fixes: (_ append: (Fix) throws -> Void) throws -> Void
    ) throws -> String {
        let path = NSTemporaryDirectory() + "/" + name
        if FileManager.default.fileExists(atPath: path) { return path }
        FileManager.default.createFile(atPath: path + ".partial", contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path + ".partial"))
        var encoder = encoder
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 << 22)
        encoder.appendHeader(to: &bytes)
        try fixes { fix in
            encoder.append(fix, to: &bytes)
            if bytes.count > 1 << 22 {
                try handle.write(contentsOf: bytes)
                bytes.removeAll(keepingCapacity: true)
            }
        }
        encoder.appendFooter(to: &bytes)
        try handle.write(contentsOf: bytes)
        try handle.close()
        try FileManager.default.moveItem(atPath: path + ".partial", toPath: path)
        return path
    }
}
