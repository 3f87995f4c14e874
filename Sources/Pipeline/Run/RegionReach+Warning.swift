import Geofencing

extension RegionReach {
    /// Beyond this from every region, a feed is taken to be elsewhere.
    public static let farMetres = 100_000.0

    /// For a run that found nothing: the regions lie far from where the
    /// feed begins, and, when exchanging each circle's latitude and
    /// longitude brings one near, that its columns are likely swapped.
    /// `nil` when a region is near.
    public var farWarning: String? {
        guard metres > Self.farMetres else { return nil }
        var text =
            "no fix came near a region: the feed begins \(Self.kilometres(metres)) from the nearest, "
            + "\"\(nearest.terminalSafe)\""
        if let swapped = metresSwapped, swapped <= Self.farMetres {
            text +=
                "; with its latitude and longitude exchanged, a region would be \(Self.kilometres(swapped)) from it: "
                + "are the regions' lat and lon the right way round?"
        }
        return text
    }

    /// `0.4 km`, `12 km`, `3421 km`.
    private static func kilometres(_ metres: Double) -> String {
        metres < 10_000 ? "\((metres / 100).rounded() / 10) km" : "\(Int((metres / 1000).rounded())) km"
    }
}
