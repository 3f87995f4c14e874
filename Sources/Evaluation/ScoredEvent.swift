import GeoCore
import Geofencing

/// An entry or an exit of one device at one region: what `evaluate`
/// scores, true or detected.
public struct ScoredEvent: Hashable, Sendable {
    /// Entry or exit.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The device came into the region.
        case enter
        /// The device left it.
        case exit
    }

    /// Entry or exit.
    public var kind: Kind
    /// When.
    public var time: Timestamp
    /// The region's id.
    public var region: String
    /// The device (`nil` for a feed's single unnamed device).
    public var device: String?

    /// An event.
    public init(kind: Kind, time: Timestamp, region: String, device: String?) {
        self.kind = kind
        self.time = time
        self.region = region
        self.device = device
    }

    /// The scored events a detected transition stands for: `enter` is an
    /// entry, `exit` an exit, `cross` both at its time, `dwell` neither.
    public static func detected(from transition: Transition) -> [ScoredEvent] {
        let entry = ScoredEvent(kind: .enter, time: transition.time, region: transition.region, device: transition.device)
        var exit = entry
        exit.kind = .exit
        switch transition.kind {
        case .enter: return [entry]
        case .exit: return [exit]
        case .cross: return [entry, exit]
        case .dwell: return []
        }
    }
}
