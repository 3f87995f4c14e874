/// The live input a command was asked to read: a serial receiver or gpsd.
///
/// Built from the raw `--device`, `--baud` and `--gpsd` values, so that the
/// command line stays glue and the rules are tested here: one input at most,
/// `--baud` only with `--device` (default 4800, the NMEA 0183 rate), a
/// supported rate, a well-formed gpsd address.
public enum LiveInput: Sendable, Equatable, CustomStringConvertible {
    /// A serial device at a line speed.
    case serial(path: String, baud: SerialBaudRate)
    /// A gpsd server.
    case gpsd(GPSDEndpoint)

    /// Reads the option values; `nil` when neither `device` nor `gpsd` is given.
    public init?(device: String?, baud: Int?, gpsd: String?) throws(LiveInputError) {
        switch (device, gpsd) {
        case (nil, nil):
            if baud != nil { throw .baudWithoutDevice }
            return nil
        case (.some, .some):
            throw .bothInputs
        case (.some(let path), nil):
            guard !path.isEmpty else { throw .emptyDevice }
            let rate = baud ?? SerialBaudRate.b4800.rawValue
            guard let supported = SerialBaudRate(rawValue: rate) else { throw .unsupportedBaud(rate) }
            self = .serial(path: path, baud: supported)
        case (nil, .some(let address)):
            if baud != nil { throw .baudWithoutDevice }
            do {
                self = .gpsd(try GPSDEndpoint(parsing: address))
            } catch {
                throw .badGPSDAddress(error)
            }
        }
    }

    /// Starts the source on its reader thread and returns its events.
    public func events(options: LiveSourceOptions = LiveSourceOptions()) -> AsyncThrowingStream<LiveSourceEvent, any Error> {
        switch self {
        case .serial(let path, let baud): SerialSource(path: path, baud: baud, options: options).events()
        case .gpsd(let endpoint): GPSDSource(endpoint: endpoint, options: options).events()
        }
    }

    /// `/dev/ttyUSB0 at 4800 baud` or `gpsd at localhost:2947`.
    public var description: String {
        switch self {
        case .serial(let path, let baud): "\(path) at \(baud) baud"
        case .gpsd(let endpoint): "gpsd at \(endpoint)"
        }
    }
}

/// A usage mistake in the live input options, worded for the command line.
public enum LiveInputError: Error, Equatable, CustomStringConvertible {
    /// `--device` and `--gpsd` were both given.
    case bothInputs
    /// `--baud` without `--device`.
    case baudWithoutDevice
    /// `--device ""`.
    case emptyDevice
    /// A rate outside ``SerialBaudRate``.
    case unsupportedBaud(Int)
    /// A `--gpsd` value that does not parse.
    case badGPSDAddress(GPSDEndpoint.ParseError)

    /// The message, with what to do instead.
    public var description: String {
        switch self {
        case .bothInputs:
            return "--device and --gpsd both name a live input; give one of them"
        case .baudWithoutDevice:
            return "--baud sets the speed of a serial --device; gpsd and files need no speed"
        case .emptyDevice:
            return "--device needs a path such as /dev/ttyUSB0 or /dev/ttyACM0"
        case .unsupportedBaud(let rate):
            return
                "unsupported baud rate \(rate); use one of \(SerialBaudRate.supportedList) (NMEA 0183 receivers usually talk at 4800)"
        case .badGPSDAddress(let error):
            return error.description
        }
    }
}
