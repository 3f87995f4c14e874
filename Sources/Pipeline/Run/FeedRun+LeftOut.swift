import FeedParsing
import Foundation

extension FeedRun {
    /// Whether a `--shard` run (`writer`'s) leaves out the feed file `path`
    /// without reading it: its fixes all take the name `device` (the
    /// file's, in a run of several files), which is another shard's.
    ///
    /// That holds for NMEA, GPX, KML, TCX and FIT, whose fixes carry no device,
    /// by `settings`' format or else by the file's first 4 KiB (as `replay`
    /// checks that a file is a feed at all); never for CSV, gpsd JSON or
    /// Takeout's history, whose fixes may name devices of any shard, nor under
    /// `--strict`, where a malformed record in any file stops every shard where
    /// it stops the run without `--shard`. Standard input, a pipe, a device and
    /// a spooled copy are always read.
    static func shardLeavesOut(_ path: String, device: String?, writer: ShardWriter?, settings: RunSettings) -> Bool {
        guard let writer, let device, !settings.strict, settings.spools[path] == nil, isRegularFile(path),
            !writer.holds(device: device)
        else { return false }
        let format = settings.format ?? sniffedFormat(of: path)
        return format.map { $0 != .csv && $0 != .gpsd && $0 != .takeout } ?? false
    }

    /// Whether `path` is a regular file (not `-`, a pipe or a device).
    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return path != "-" && stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The format of the file `path` by its first bytes; `nil` when it
    /// cannot be read or is not yet decided.
    private static func sniffedFormat(of path: String) -> FeedFormat? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let prefix = try? handle.read(upToCount: FeedSniffer.decisiveLength) else { return nil }
        return FeedSniffer.detect(Array(prefix), isComplete: prefix.count < FeedSniffer.decisiveLength)
    }
}
