import GeoCore

/// Decodes Google's on-device Timeline export (`Timeline.json`, from a
/// phone's settings since 2024, when Google stopped keeping the history):
/// Android's `{"semanticSegments": […], "rawSignals": […],
/// "userLocationProfile": {…}}`, or iOS's array of segments.
///
/// Every position in it becomes a fix of the file's one device:
/// - a path's points (`timelinePath`), timed by their `time`, or on iOS by
///   `durationMinutesOffsetFromStartTime` after the segment's start;
/// - a visit's place (`visit.topCandidate.placeLocation`) at the visit's
///   start and again at its end, so that a stay is seen as one;
/// - an activity's `start` at its start time and its `end` at its end time;
/// - a raw signal's `position`: `LatLng`, `timestamp`, `accuracyMeters`,
///   `altitudeMeters` and `speedMetersPerSecond`.
///
/// Positions are read in the three forms Google writes them
/// (``TimelinePoint``). Memories (`timelineMemory`), Wi-Fi scans and
/// activity records give no position and are counted as ignored; the
/// user's frequent places (``TimelinePlaces``) are passed over. The two
/// sections overlap in time, so the fixes are held and handed on at the end
/// in time order, repeats dropped (``TimelineFixOrder``); the elements
/// themselves stream through ``JSONArrayFramer``. An element that cannot be
/// read is reported with its name (`semanticSegments[3].timelinePath[2]`)
/// and line, and skipped.
public final class TimelineDecoder: FeedDecoder {
    private var transcoder = TextTranscoder()
    private var framer: JSONArrayFramer
    private var elements = TimelineElementDecoder()

    /// Creates a decoder.
    public init(options: FeedDecodingOptions = .init()) {
        framer = JSONArrayFramer(
            arrays: TimelineElementDecoder.arrays, acceptsRootArray: true, maximumLength: options.maximumLineLength)
    }

    /// Always ``FeedFormat/timeline``.
    public var format: FeedFormat? { .timeline }

    /// The elements that give no position, by kind.
    public var statistics: FeedStatistics { elements.statistics }

    /// Decodes the next chunk.
    public func decode(_ chunk: UnsafeRawBufferPointer, into batch: inout FeedBatch) {
        swap(&elements.batch, &batch)
        defer { swap(&elements.batch, &batch) }
        transcoder.transcode(chunk) { bytes in framer.feed(bytes) { elements.handle($0) } }
    }

    /// Ends the input: hands on the fixes, and says so when it held no
    /// segments or signals or was cut short.
    public func finish(into batch: inout FeedBatch) {
        swap(&elements.batch, &batch)
        defer { swap(&elements.batch, &batch) }
        transcoder.finish { bytes in framer.feed(bytes) { elements.handle($0) } }
        elements.finish()
        let end = FeedLocation(line: 0, byteOffset: -1)
        if framer.isUnfinished {
            elements.batch.diagnostics.append(
                FeedDiagnostic(
                    .truncated, at: end,
                    "the file ends inside its JSON document, after \(framer.recordCount) elements (cut short?); "
                        + "the elements before the cut are kept"))
        } else if !framer.sawArray, !elements.sawNoJSON {
            elements.batch.diagnostics.append(
                FeedDiagnostic(
                    .missingField, at: end,
                    "no \"semanticSegments\" or \"rawSignals\" array: not Google's Timeline export"))
        }
    }
}
