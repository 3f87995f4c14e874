import Glibc

/// A line speed that the serial source accepts: the rates GPS receivers use.
///
/// NMEA 0183 receivers talk at 4800 baud; many modern ones at 9600, and
/// u-blox or SiRF chips configured for higher update rates at 38400 to 115200.
public enum SerialBaudRate: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// 4800 baud, the NMEA 0183 standard rate.
    case b4800 = 4800
    /// 9600 baud.
    case b9600 = 9600
    /// 19200 baud.
    case b19200 = 19200
    /// 38400 baud.
    case b38400 = 38400
    /// 57600 baud.
    case b57600 = 57600
    /// 115200 baud.
    case b115200 = 115200

    /// The rate as `--baud` spells it, e.g. `4800`.
    public var description: String { String(rawValue) }

    /// The supported rates as a sentence fragment: `4800, 9600, …, 115200`.
    public static var supportedList: String {
        allCases.map(\.description).joined(separator: ", ")
    }

    /// The termios speed constant for `cfsetispeed`/`cfsetospeed`.
    var termiosSpeed: speed_t {
        switch self {
        case .b4800: return speed_t(B4800)
        case .b9600: return speed_t(B9600)
        case .b19200: return speed_t(B19200)
        case .b38400: return speed_t(B38400)
        case .b57600: return speed_t(B57600)
        case .b115200: return speed_t(B115200)
        }
    }
}
