/// A simulated device: the name its fixes carry and the path it truly follows.
public struct SimulatedDevice: Sendable {
    /// The device name of its fixes and truth; `nil` for the single device
    /// of an unnamed feed.
    public var name: String?
    /// Where it really is at every moment.
    public var path: TimedPath

    /// A device called `name` following `path`.
    public init(name: String?, path: TimedPath) {
        self.name = name
        self.path = path
    }

    /// `count` devices following the same path (`--devices N`): named
    /// `dev1`…`devN` when there are several, unnamed when there is one.
    /// Each still has its own error and delivery.
    public static func numbered(_ count: Int, following path: TimedPath) -> [SimulatedDevice] {
        if count == 1 { return [SimulatedDevice(name: nil, path: path)] }
        return (0..<count).map { SimulatedDevice(name: "dev\($0 + 1)", path: path) }
    }
}
