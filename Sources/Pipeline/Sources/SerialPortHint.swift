import Glibc

/// What a person can do about a serial device that would not open: the
/// receivers' ports that are here when the path is not one of them, and the
/// group to join when the device is not theirs to read.
enum SerialPortHint {
    /// The words after the system's reason, or `nil` when there are none:
    /// `ports` are the receivers' ports found (``receiverPorts()``),
    /// `group` the group that owns `path`.
    static func text(errno code: Int32, path: String, ports: [String], group: String?) -> String? {
        switch code {
        case ENOENT:
            if ports.isEmpty {
                return "no USB receiver's port is here (/dev/ttyUSB*, /dev/ttyACM*): is it plugged in?"
            }
            let shown = ports.prefix(4).joined(separator: ", ") + (ports.count > 4 ? ", …" : "")
            return "the receivers' ports here: " + shown
        case EACCES:
            guard let group, !["root", "tty"].contains(group) else { return "see who may read it: ls -l \(path)" }
            return "it is for group \(group): sudo usermod -aG \(group) $USER, then log in again"
        default:
            return nil
        }
    }

    /// The ports a USB GPS receiver shows up as: `/dev/serial/by-id/…`
    /// (names that stay with the receiver), then `/dev/ttyACM*` and
    /// `/dev/ttyUSB*`, each in order.
    static func receiverPorts() -> [String] {
        let byID = entries(of: "/dev/serial/by-id").map { "/dev/serial/by-id/" + $0 }
        let ttys = entries(of: "/dev").filter { $0.hasPrefix("ttyACM") || $0.hasPrefix("ttyUSB") }.map { "/dev/" + $0 }
        return byID + ttys
    }

    /// The name of the group that owns `path`, or `nil`.
    static func group(of path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0, let entry = getgrgid(status.st_gid), let name = entry.pointee.gr_name else {
            return nil
        }
        return String(cString: name)
    }

    /// The names in `folder`, shortest first (ttyACM2 before ttyACM10), or
    /// none when it cannot be read.
    private static func entries(of folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }
    }
}
