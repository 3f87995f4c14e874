import Foundation

/// Why a run could not start or go on.
public enum RunError: Error, Equatable, CustomStringConvertible {
    /// An output file could not be created: its path and why.
    case cannotCreate(String, reason: String)
    /// Writing to a file failed: its path and the system's reason.
    case writeFailed(String, String)

    /// ``cannotCreate(_:reason:)`` for `path`, which could not be created,
    /// with the reason the file system shows: a folder in its place, no
    /// folder to hold it, or else no permission to write there.
    public static func creating(_ path: String) -> RunError {
        if isFolder(path) { return .cannotCreate(path, reason: "it is a folder") }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            return .cannotCreate(path, reason: "the folder \(folder) does not exist")
        }
        return .cannotCreate(path, reason: "not writable")
    }

    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason): return "cannot create \"\(path)\": \(reason)"
        case .writeFailed(let path, let reason): return "cannot write \"\(path)\": \(reason)"
        }
    }
}
