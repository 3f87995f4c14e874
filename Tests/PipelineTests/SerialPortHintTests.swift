import Glibc
import Testing

@testable import Pipeline

/// The words `live --device` adds to a device that would not open.
@Suite("what to do about a serial device that would not open")
struct SerialPortHintTests {
    @Test("a missing device: the receivers' ports that are here, or the question whether one is plugged in")
    func missing() {
        #expect(
            SerialPortHint.text(errno: ENOENT, path: "/dev/ttyUSB0", ports: [], group: nil)
                == "no USB receiver's port is here (/dev/ttyUSB*, /dev/ttyACM*): is it plugged in?")
        #expect(
            SerialPortHint.text(
                errno: ENOENT, path: "/dev/ttyUSB0", ports: ["/dev/serial/by-id/usb-u-blox_GNSS-if00", "/dev/ttyACM0"],
                group: nil) == "the receivers' ports here: /dev/serial/by-id/usb-u-blox_GNSS-if00, /dev/ttyACM0")
        let many = (0..<6).map { "/dev/ttyUSB\($0)" }
        #expect(
            SerialPortHint.text(errno: ENOENT, path: "/dev/gps", ports: many, group: nil)
                == "the receivers' ports here: /dev/ttyUSB0, /dev/ttyUSB1, /dev/ttyUSB2, /dev/ttyUSB3, …")
    }

    @Test("a device not the user's: the group to join, where joining it is the fix")
    func notPermitted() {
        #expect(
            SerialPortHint.text(errno: EACCES, path: "/dev/ttyACM0", ports: [], group: "dialout")
                == "it is for group dialout: sudo usermod -aG dialout $USER, then log in again")
        for group in [nil, "root", "tty"] {
            #expect(
                SerialPortHint.text(errno: EACCES, path: "/dev/pts/3", ports: [], group: group)
                    == "see who may read it: ls -l /dev/pts/3")
        }
        #expect(SerialPortHint.text(errno: EIO, path: "/dev/ttyACM0", ports: [], group: "dialout") == nil)
    }

    @Test("the group of a device is read from the system")
    func groupOfADevice() {
        #expect(SerialPortHint.group(of: "/dev/null") == "root")
        #expect(SerialPortHint.group(of: "/dev/repeat-no-such-device") == nil)
    }
}
