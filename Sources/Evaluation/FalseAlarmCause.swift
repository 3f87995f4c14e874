/// Why a detection matched no true event (a false positive): the first
/// of these that applies.
public enum FalseAlarmCause: String, Hashable, Sendable, CaseIterable {
    /// A true event of the same device, region and kind was near, but
    /// outside the matching window (the other half of a late or early miss).
    case outsideWindow = "outside-window"
    /// The device's first fix was inside, where its truth began: an
    /// initial entry the truth does not have (`--no-initial-enter`).
    case initialInside = "initial-inside"
    /// A detected exit and re-entry while the true position was at the
    /// fence (within the band) or inside: the detection flapped — quickly
    /// (within ``flapSeconds``) at the edge, or at any pace from inside.
    case flapping = "flapping"
    /// The true position was well away from the fence: a noisy fix or an
    /// outlier made the detection.
    case noise = "noise"
    /// The true position was at the fence (within the band) without a
    /// quick re-entry: the fence and the truth disagree by a few metres.
    case nearEdge = "near-edge"

    /// What the detector did around one false detection.
    public struct Evidence: Hashable, Sendable {
        /// Entry or exit.
        public var kind: ScoredEvent.Kind
        /// Seconds to the nearest true event of the same device, region
        /// and kind left unmatched; `nil`: none near.
        public var strayTruth: Double?
        /// Whether this is the device's first detection at the region
        /// and its truth track starts inside.
        public var initialInside = false
        /// Seconds between this detection and its other half in a flap:
        /// for an entry, the detected exit just before; for an exit, the
        /// detected entry just after; `nil`: none.
        public var flapSeconds: Double?
        /// Metres the true position was past the fence at the time
        /// (negative: inside); `nil` without truth tracks.
        public var truthExcess: Double?
        /// The band around the fence in metres (the hysteresis plus a
        /// margin for the truth's own error).
        public var edgeBand: Double

        /// Evidence of a false detection of `kind`, with a band of
        /// `edgeBand` metres around the fence.
        public init(kind: ScoredEvent.Kind, edgeBand: Double) {
            self.kind = kind
            self.edgeBand = edgeBand
        }
    }

    /// A flap's exit and re-entry are at most this many seconds apart.
    public static let flapSeconds = 600.0

    /// The cause `evidence` points to: a true event just outside the
    /// window first, then the initial entry, then where the truth was —
    /// well past the fence is noise; at it or inside with a detection of
    /// the other kind close by is flapping.
    public init(_ evidence: Evidence) {
        let excess = evidence.truthExcess
        if evidence.strayTruth != nil {
            self = .outsideWindow
        } else if evidence.initialInside {
            self = .initialInside
        } else if let excess, excess > evidence.edgeBand {
            self = .noise
        } else if let flap = evidence.flapSeconds, flap <= Self.flapSeconds || (excess ?? 0) < -evidence.edgeBand {
            self = .flapping
        } else if let excess, abs(excess) <= evidence.edgeBand {
            self = .nearEdge
        } else {
            self = .noise
        }
    }

    /// A short name for a table.
    public var label: String {
        switch self {
        case .outsideWindow: return "true event near, but outside the window"
        case .initialInside: return "first fix inside (initial entry)"
        case .flapping: return "flapping at the edge (exit and re-entry)"
        case .noise: return "noise or outlier away from a true visit"
        case .nearEdge: return "at the edge, within the band"
        }
    }

    /// What the cause means and what to try.
    public var advice: String {
        switch self {
        case .outsideWindow: return "Counted once as missed and once as false; widen --window or cut delays."
        case .initialInside: return "The track starts inside; --no-initial-enter drops such entries."
        case .flapping: return "Noise across the fence; more hysteresis or confirm/exit-confirm steadies it."
        case .noise: return "An inaccurate or outlying fix; a tighter --max-accuracy or confirm filters it."
        case .nearEdge: return "Fence and truth disagree by metres; pad or hysteresis decide which way."
        }
    }
}
