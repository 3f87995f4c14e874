import Foundation

/// Whether `path` names an existing folder, which a command given it for
/// a file should name as one.
public func isFolder(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
}
