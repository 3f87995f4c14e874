/// Why a run could not start or go on.
public enum RunError: Error, Equatable, CustomStringConvertible {
    /// An output file could not be created.
    case cannotCreate(String)

    public var description: String {
        switch self {
        case .cannotCreate(let path): return "cannot create \"\(path)\": no such folder, or not writable"
        }
    }
}
