import Glibc

/// Opens a serial device for reading NMEA: exclusive, raw, non-blocking.
///
/// The steps, each failing with a ``LiveSourceError`` that names the device:
/// 1. `open(O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)`: read-write because
///    termios needs it, never the controlling terminal, not inherited by
///    `--exec` children, and never blocking on carrier detect; else
///    ``LiveSourceError/cannotOpen(path:errno:hint:)``, with the receivers'
///    ports that are here or the group to join.
/// 2. `isatty`, else ``LiveSourceError/notATerminal(path:)`` (permanent).
/// 3. Exclusive use: `ioctl(TIOCEXCL)` (further opens fail with EBUSY, except
///    for root) and `flock(LOCK_EX | LOCK_NB)` (the convention gpsd, minicom
///    and ModemManager honour); either conflict is ``LiveSourceError/busy(path:)``.
/// 4. termios: `cfmakeraw` (8N1, no echo, no line editing, no CR/LF
///    translation), `CLOCAL | CREAD` (ignore modem lines, enable the
///    receiver), no hardware flow control, `VMIN = 1, VTIME = 0`, the
///    requested speed both ways, applied with `TCSANOW`.
/// 5. `tcflush(TCIFLUSH)`: bytes queued before the open are a partial,
///    stale sentence at best.
///
/// A pseudo-terminal accepts any speed and ignores it: data arrives as fast
/// as the other side writes it.
enum SerialPort {
    /// Opens and configures `path`; returns a non-blocking descriptor the caller closes.
    static func open(path: String, baud: SerialBaudRate) throws(LiveSourceError) -> Int32 {
        let descriptor = Glibc.open(path, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            let hint = SerialPortHint.text(
                errno: code, path: path, ports: code == ENOENT ? SerialPortHint.receiverPorts() : [],
                group: code == EACCES ? SerialPortHint.group(of: path) : nil)
            throw .cannotOpen(path: path, errno: code, hint: hint)
        }
        do {
            try configure(descriptor, path: path, baud: baud)
            return descriptor
        } catch {
            _ = Glibc.close(descriptor)
            throw error
        }
    }

    /// Applies steps 2 to 5 of the type's description to an open descriptor.
    private static func configure(_ descriptor: Int32, path: String, baud: SerialBaudRate) throws(LiveSourceError) {
        guard isatty(descriptor) == 1 else { throw .notATerminal(path: path) }
        if ioctl(descriptor, UInt(TIOCEXCL)) != 0 {
            throw errno == EBUSY ? .busy(path: path) : .system(endpoint: path, operation: "ioctl(TIOCEXCL)", errno: errno)
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            throw errno == EWOULDBLOCK ? .busy(path: path) : .system(endpoint: path, operation: "flock", errno: errno)
        }
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else {
            throw .system(endpoint: path, operation: "tcgetattr", errno: errno)
        }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        settings.c_cflag &= ~tcflag_t(CRTSCTS)
        withUnsafeMutableBytes(of: &settings.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1
            controlCharacters[Int(VTIME)] = 0
        }
        guard cfsetispeed(&settings, baud.termiosSpeed) == 0, cfsetospeed(&settings, baud.termiosSpeed) == 0 else {
            throw .system(endpoint: path, operation: "cfsetspeed(\(baud))", errno: errno)
        }
        guard tcsetattr(descriptor, TCSANOW, &settings) == 0 else {
            throw .system(endpoint: path, operation: "tcsetattr", errno: errno)
        }
        guard tcflush(descriptor, TCIFLUSH) == 0 else {
            throw .system(endpoint: path, operation: "tcflush", errno: errno)
        }
    }
}
