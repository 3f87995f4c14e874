import ArgumentParser
import FeedParsing
import Foundation
import Geofencing
import Pipeline
import Recurrence

/// A file named on the command line that cannot be read: a plain error
/// naming it and why (exit 1), not a usage error.
struct UnreadableFile: Error, CustomStringConvertible {
    let path: String
    var description: String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return "cannot read \"\(path)\": no such file"
        }
        return isDirectory.boolValue
            ? "cannot read \"\(path)\": it is a folder, not a file" : "cannot read \"\(path)\": permission denied"
    }
}

/// Checks that every input named exists and can be read (standard input,
/// `-`, always can), so that a command stops before it prints anything.
/// - Throws: ``UnreadableFile`` for the first that cannot.
func checkReadable(_ paths: [String]) throws {
    for path in paths where path != "-" {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        guard exists, !isDirectory.boolValue, FileManager.default.isReadableFile(atPath: path) else {
            throw UnreadableFile(path: path)
        }
    }
}

/// An input file that is not what the command needs (a TCX given as a
/// feed, a tasks file that does not decode): a plain error naming the file,
/// then what is wrong (exit 1).
struct InputFileProblem: Error, CustomStringConvertible {
    let path: String
    let problem: String
    var description: String { "\(path): \(problem)" }
}

/// Checks that every feed named can be read and looks like a feed from its
/// first bytes, so that a command stops before it prints anything. Only
/// regular files are peeked at: bytes read from standard input, a pipe
/// (a shell's `<(…)`) or a device would be lost to the decoder. A
/// `format` the user gave that the first records contradict (GPX's `<`,
/// NMEA's `$`, a gpsd `TPV`) is decoded as asked, with a warning.
/// - Throws: ``UnreadableFile`` or ``InputFileProblem`` for the first that is not.
func checkFeeds(_ paths: [String], format: FeedFormat?) throws {
    try checkReadable(paths)
    for path in paths where isRegularFile(path) {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw UnreadableFile(path: path) }
        defer { try? handle.close() }
        let prefix = [UInt8]((try? handle.read(upToCount: FeedSniffer.decisiveLength)) ?? Data())
        let isWholeFile = prefix.count < FeedSniffer.decisiveLength
        if let problem = NotAFeed.identify(prefix, isWholeFile: isWholeFile, format: format) {
            throw InputFileProblem(path: path, problem: "\(problem)")
        }
        if let format, let read = FeedSniffer.detect(prefix, isComplete: isWholeFile), read != format, read != .csv {
            Console.warn(
                "\(path) reads as \(read.name), not \(format.name) as --format says: it is decoded as asked "
                    + "(leave --format out to have it read as \(read.name))")
        }
    }
}

/// Whether `path` names a regular file, which can be read again (not `-`,
/// a pipe or a device).
func isRegularFile(_ path: String) -> Bool {
    var status = stat()
    return path != "-" && stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
}

/// The bytes of a file, or of standard input for `-`.
/// - Throws: ``UnreadableFile``.
func readInput(_ path: String) throws -> Data {
    if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
    if let mapped = MappedFile.contents(of: path) { return mapped }
    // A FileHandle also reads pipes and /dev/fd paths (a shell's <(…)).
    guard let handle = FileHandle(forReadingAtPath: path) else { throw UnreadableFile(path: path) }
    defer { try? handle.close() }
    // readToEnd() is nil for an empty file: that is no data, not an error.
    do { return try handle.readToEnd() ?? Data() } catch { throw UnreadableFile(path: path) }
}

/// The tasks of a tasks file (`--tasks`, `task import`), read on up to
/// `jobs` threads (every core unless told).
/// - Throws: ``UnreadableFile``, or ``InputFileProblem`` naming the file.
func loadTasks(_ path: String, jobs: Int = ProcessInfo.processInfo.activeProcessorCount) throws -> [RecurringTask] {
    try loadIndexedTasks(path, jobs: jobs).tasks
}

/// ``loadTasks(_:jobs:)``'s tasks with the position of each id, for a
/// scheduler to take (see ``TaskFile/decodeIndexed(_:jobs:)``).
/// - Throws: ``UnreadableFile``, or ``InputFileProblem`` naming the file.
func loadIndexedTasks(_ path: String, jobs: Int) throws -> TaskFile.Indexed {
    let data = try readInput(path)
    do {
        return try TaskFile.decodeIndexed(data, jobs: jobs)
    } catch {
        throw InputFileProblem(path: path == "-" ? "standard input" : path, problem: "\(error)")
    }
}

/// The regions of a `--regions` file (CSV, GeoJSON, KML or GPX waypoints); bad rows are
/// reported, and under `--strict` end the command with status 2.
/// - Throws: ``NoUsableRegion`` when not one region reads.
func loadRegions(_ path: String, strict: Bool, waypointRadius: Double = 100) throws -> RegionTable {
    guard waypointRadius > 0, waypointRadius.isFinite else {
        throw ValidationError("--radius must be a positive number of metres")
    }
    let loaded: LoadedRegions
    do { loaded = try LoadedRegions.load(path: path, waypointRadius: waypointRadius) } catch {
        throw UnreadableFile(path: path)
    }
    for diagnostic in loaded.diagnostics {
        Console.write("\(diagnostic)")
        if strict { throw ExitCode(2) }
    }
    // A file of which nothing reads is a mistake, never a run with nothing to watch.
    guard !loaded.regions.isEmpty else { throw NoUsableRegion(path: path == "-" ? "standard input" : path) }
    return loaded.regions
}

/// A regions file in which no region could be read (exit 1).
struct NoUsableRegion: Error, CustomStringConvertible {
    let path: String
    var description: String {
        "no usable region in \(path) (CSV id,lat,lon,radius[,task], GeoJSON, KML or GPX waypoints): nothing to watch"
    }
}

/// Refuses an output file that is one of the command's inputs (the same
/// file by device and inode, whatever the spelling or link): writing it
/// would destroy the input before it is read.
/// - Parameters:
///   - outputs: each output flag with its path (`nil` when not given).
///   - inputs: every input path; `-` and paths that do not exist are skipped.
/// - Throws: a `ValidationError` naming the flag and the file.
func checkOutputsAreNotInputs(_ outputs: [(flag: String, path: String?)], inputs: [String?]) throws {
    let inputFiles = inputs.compactMap { $0 }.filter { $0 != "-" }.compactMap { path in fileIdentity(path).map { (path, $0) } }
    for case (let flag, let path?) in outputs where path != "-" {
        guard let identity = fileIdentity(path), let input = inputFiles.first(where: { $0.1 == identity }) else { continue }
        throw ValidationError(
            "\(flag) \"\(path)\" is an input of this command (\"\(input.0)\"): writing it would destroy it; choose another file")
    }
}

/// The device and inode of the file at `path`, or `nil` when it does not exist.
private func fileIdentity(_ path: String) -> [UInt64]? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return [UInt64(info.st_dev), UInt64(info.st_ino)]
}
