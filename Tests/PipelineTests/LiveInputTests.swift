import Pipeline
import Testing

/// The rules behind `--device`, `--baud` and `--gpsd`.
@Suite("Live input options")
struct LiveInputTests {
    @Test("a device takes 4800 baud unless told otherwise")
    func deviceDefaults() throws {
        #expect(try LiveInput(device: "/dev/ttyUSB0", baud: nil, gpsd: nil) == .serial(path: "/dev/ttyUSB0", baud: .b4800))
        #expect(try LiveInput(device: "/dev/ttyACM0", baud: 115200, gpsd: nil) == .serial(path: "/dev/ttyACM0", baud: .b115200))
        #expect(try LiveInput(device: "/dev/ttyACM0", baud: 38400, gpsd: nil)?.description == "/dev/ttyACM0 at 38400 baud")
    }

    @Test("every supported rate is accepted", arguments: [4800, 9600, 19200, 38400, 57600, 115200])
    func supportedRates(rate: Int) throws {
        #expect(
            try LiveInput(device: "/dev/ttyS0", baud: rate, gpsd: nil)
                == .serial(path: "/dev/ttyS0", baud: SerialBaudRate(rawValue: rate)!))
    }

    @Test("gpsd addresses become endpoints")
    func gpsd() throws {
        #expect(try LiveInput(device: nil, baud: nil, gpsd: "[::1]:2948") == .gpsd(GPSDEndpoint(host: "::1", port: 2948)))
        #expect(try LiveInput(device: nil, baud: nil, gpsd: "localhost")?.description == "gpsd at localhost:2947")
        #expect(try LiveInput(device: nil, baud: nil, gpsd: nil) == nil)
    }

    @Test(
        "usage mistakes are refused with a sentence that says what to do",
        arguments: [
            (
                String?.some("/dev/ttyUSB0"), Int?.some(1234), String?.none,
                "unsupported baud rate 1234; use one of 4800, 9600, 19200, 38400, 57600, 115200"
            ),
            ("/dev/ttyUSB0", nil, "localhost", "--device and --gpsd both name a live input; give one of them"),
            (nil, 9600, nil, "--baud sets the speed of a serial --device"),
            (nil, 9600, "localhost", "--baud sets the speed of a serial --device"),
            ("", nil, nil, "--device needs a path"),
            (nil, nil, "localhost:99999", "invalid gpsd address 'localhost:99999': '99999' is not a TCP port (1–65535)"),
        ])
    func refused(device: String?, baud: Int?, gpsd: String?, message: String) {
        #expect {
            try LiveInput(device: device, baud: baud, gpsd: gpsd)
        } throws: { error in
            (error as? LiveInputError)?.description.hasPrefix(message) == true
        }
    }
}
