import GeoCore

/// A map's frame: a ``LocalProjection`` centred on what it shows, scaled
/// uniformly (a metre is as long east as north) to fit a drawing of a
/// given width, with pixels right and down.
public struct MapFrame: Hashable, Sendable {
    /// The projection from degrees to plane metres.
    public let projection: LocalProjection
    /// The drawing's width in pixels.
    public let width: Double
    /// The drawing's height in pixels (from the content's aspect, within
    /// the limits given).
    public let height: Double
    /// Pixels per plane metre.
    public let pixelsPerMetre: Double
    /// The plane point drawn at the middle of the drawing.
    private let middle: PlanePoint

    /// The frame that shows every coordinate with `margin` pixels to spare.
    ///
    /// - Parameters:
    ///   - coordinates: what must be visible (track points, region edges);
    ///     at least one.
    ///   - heights: the range of heights allowed; the height follows the
    ///     content's aspect within it.
    ///   - minimumSpan: the least width and height shown, in metres (a
    ///     single point still gets a map of its neighbourhood).
    public init(
        covering coordinates: [Coordinate], width: Double, heights: ClosedRange<Double>, margin: Double,
        minimumSpan: Double = 200
    ) {
        let extent = GeoExtent(covering: coordinates) ?? GeoExtent(covering: [Coordinate(latitude: 0, longitude: 0)])!
        projection = LocalProjection(centre: extent.centre)
        var low = PlanePoint(x: 0, y: 0)
        var high = PlanePoint(x: 0, y: 0)
        for (index, coordinate) in coordinates.enumerated() {
            let point = projection.project(coordinate)
            if index == 0 {
                low = point
                high = point
            }
            low = PlanePoint(x: min(low.x, point.x), y: min(low.y, point.y))
            high = PlanePoint(x: max(high.x, point.x), y: max(high.y, point.y))
        }
        let spanX = max(high.x - low.x, minimumSpan)
        let spanY = max(high.y - low.y, minimumSpan)
        let scale = min((width - 2 * margin) / spanX, (heights.upperBound - 2 * margin) / spanY)
        self.width = width
        height = min(max(spanY * scale + 2 * margin, heights.lowerBound), heights.upperBound)
        pixelsPerMetre = scale
        middle = PlanePoint(x: (low.x + high.x) / 2, y: (low.y + high.y) / 2)
    }

    /// Where `coordinate` is drawn, in pixels from the top left.
    public func pixel(_ coordinate: Coordinate) -> PlanePoint {
        let point = projection.project(coordinate)
        return PlanePoint(
            x: width / 2 + (point.x - middle.x) * pixelsPerMetre, y: height / 2 - (point.y - middle.y) * pixelsPerMetre)
    }
}
