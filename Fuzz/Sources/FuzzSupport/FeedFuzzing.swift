import FeedParsing
import GeoCore

/// The fuzz target of a feed decoder: what `repeat-sim decode` does with a
/// file, on one input, with checks.
///
/// 1. Decodes the input in one chunk, then again in the 1–3 chunks
///    ``FuzzChoices`` cuts it into, with options also chosen from the input
///    (a short line limit, CSV column names, a default date, waypoints).
/// 2. Traps when the chunked run differs from the whole one (fixes,
///    diagnostics, statistics, the format detected): the decoder contract
///    says chunk boundaries do not matter, for GPX too (libxml2 is given
///    the same 64 KiB pieces however the input is cut).
/// 3. Traps on a fix outside the valid coordinate ranges.
/// 4. Writes every fix, waypoint and diagnostic as `decode` does (JSON
///    lines, diagnostic text). Not the feed encoders: only `generate` uses
///    them, on simulated fixes, and their contract bounds the numbers
///    (`DecimalText`) where a decoded fix may carry any finite value.
public enum FeedFuzzing {
    /// Runs the checks on `input` with the decoder of `format` (`nil`: the
    /// sniffing decoder the CLI uses when no format is given).
    public static func check(_ input: UnsafeRawBufferPointer, format: FeedFormat?) {
        var choices = FuzzChoices(input)
        let options = self.options(format: format, choices: &choices)
        let whole = decode([input], format: format, options: options)
        let cuts = choices.cuts(in: input.count)
        if !cuts.isEmpty {
            let chunked = decode(input.chunks(at: cuts), format: format, options: options)
            compare(whole, chunked, format: format, cuts: cuts, count: input.count)
        }
        for fix in whole.batch.fixes where !fix.coordinate.isValid {
            fatalError("a fix with an invalid coordinate: \(fix)")
        }
        write(whole.batch)
    }

    /// What one decoding run produced.
    struct Outcome {
        var batch: FeedBatch
        var statistics: FeedStatistics
        var format: FeedFormat?
    }

    static func decode(_ chunks: [UnsafeRawBufferPointer], format: FeedFormat?, options: FeedDecodingOptions) -> Outcome {
        let decoder = makeFeedDecoder(format: format, options: options)
        var batch = FeedBatch()
        for chunk in chunks { decoder.decode(chunk, into: &batch) }
        decoder.finish(into: &batch)
        return Outcome(batch: batch, statistics: decoder.statistics, format: decoder.format)
    }

    static func options(format: FeedFormat?, choices: inout FuzzChoices) -> FeedDecodingOptions {
        var options = FeedDecodingOptions()
        if choices.oneIn(4) { options.maximumLineLength = 1 + choices.below(300) }
        if format == nil || format == .gpx || format == .kml || format == .fit {
            options.collectWaypoints = choices.oneIn(2)
            options.collectRoutePoints = choices.oneIn(2)
        }
        if format == nil || format == .nmea, choices.oneIn(3) {
            options.defaultDate = choices.below(40_000) - 5_000
        }
        if format == nil || format == .csv, choices.oneIn(4) {
            let columns = [
                ["lon", "lat", "ele", "name", "time"], ["lat", "lon"], ["time", "latitude", "longitude", "speed", "course"],
                ["utmz", "utmc", "utme", "utmn"], ["swisse", "swissn", "alt"], ["bngsquare", "bnge", "bngn"],
            ]
            options.csvColumns = columns[choices.below(columns.count)]
        }
        return options
    }

    static func compare(_ whole: Outcome, _ chunked: Outcome, format: FeedFormat?, cuts: [Int], count: Int) {
        func fail(_ what: String, _ a: some Any, _ b: some Any) -> Never {
            fatalError("cut at \(cuts), the \(what) differ from one chunk's:\n  whole:   \(a)\n  chunked: \(b)")
        }
        if whole.format != chunked.format { fail("formats", whole.format as Any, chunked.format as Any) }
        // Compare the JSON of the fixes too: a NaN is never == itself.
        if whole.batch.fixes != chunked.batch.fixes, json(whole.batch.fixes) != json(chunked.batch.fixes) {
            let index =
                zip(whole.batch.fixes, chunked.batch.fixes).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(whole.batch.fixes.count, chunked.batch.fixes.count)
            fail(
                "fixes (\(whole.batch.fixes.count) and \(chunked.batch.fixes.count); first difference at \(index))",
                whole.batch.fixes.dropFirst(index).first as Any, chunked.batch.fixes.dropFirst(index).first as Any)
        }
        if whole.batch.diagnostics != chunked.batch.diagnostics {
            fail("diagnostics", whole.batch.diagnostics.map(\.description), chunked.batch.diagnostics.map(\.description))
        }
        if whole.batch.waypoints != chunked.batch.waypoints || whole.batch.routePoints != chunked.batch.routePoints {
            fail(
                "waypoints", whole.batch.waypoints + whole.batch.routePoints, chunked.batch.waypoints + chunked.batch.routePoints)
        }
        if whole.statistics != chunked.statistics { fail("statistics", whole.statistics, chunked.statistics) }
    }

    static func json(_ fixes: [Fix]) -> [UInt8] {
        var bytes: [UInt8] = []
        for fix in fixes { FixJSONEncoder.append(fix, to: &bytes) }
        return bytes
    }

    /// Writes the batch as `decode` does: JSON lines, the diagnostics' text.
    static func write(_ batch: FeedBatch) {
        var bytes = json(batch.fixes)
        for waypoint in batch.waypoints + batch.routePoints { FixJSONEncoder.append(waypoint, to: &bytes) }
        for diagnostic in batch.diagnostics { bytes.append(contentsOf: diagnostic.description.utf8) }
        blackHole(bytes)
    }
}

/// Keeps a value alive so that the work that made it is not optimised away.
@inline(never)
public func blackHole<T>(_ value: T) {}
