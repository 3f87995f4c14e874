/// Why a run could not start or go on.
public enum RunError: Error, Equatable, CustomStringConvertible {
    /// An output file could not be created.
    case cannotCreate(String)
    /// Writing to a file failed: its path and the system's reason.
    case writeFailed(String, String)

    public var description: String {
        switch self {
        case .cannotCreate(let path): return "cannot create \"\(path)\": no such folder, or not writable"
        case .writeFailed(let path, let reason): return "cannot write \"\(path)\": \(reason)"
        }
    }
}
