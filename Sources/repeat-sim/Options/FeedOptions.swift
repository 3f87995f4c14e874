import ArgumentParser
import FeedParsing
import GeoCore

/// How to read a feed, for `decode`, `replay` and `live`: the format, the
/// date of a date-less NMEA log, the columns of a headerless CSV.
struct FeedOptions: ParsableArguments {
    @Option(help: "The feed format, or auto to detect it from the content.")
    var format: FeedFormatChoice = .auto

    @Option(help: ArgumentHelp("The UTC date of an NMEA log that carries none (GGA only).", valueName: "YYYY-MM-DD"))
    var date: String?

    @Option(
        help: ArgumentHelp(
            "The columns of a CSV without a header line, in order.",
            discussion: """
                Names as a header would give them (lat, lon, ele, time, device…; others, \
                like name or -, are skipped), e.g. --columns lon,lat,ele,name,time for a \
                longitude-first file. A first line that is a header is skipped. Without \
                --columns, a CSV whose first line is data is read as lat,lon.
                """,
            valueName: "names"))
    var columns: String?

    @Flag(help: "Print every diagnostic; by default one repeated on many lines is shown 3 times, then counted.")
    var verbose = false

    /// What is wrong with the flags, in the order they appear.
    func problems() -> [String] {
        var problems: [String] = []
        if let date, Self.days(fromDate: date) == nil {
            problems.append(
                RFC3339.secondsSince1970(date + "T00:00:00Z") == nil
                    ? "--date '\(date)' is not a date like 2019-03-08"
                    : "--date '\(date)' is outside 1677-09-22 to 2262-04-10, the days a feed's times can hold")
        }
        if let names = columnNames, let problem = FeedDecodingOptions.problem(withCSVColumns: names) {
            problems.append("--columns: \(problem)")
        }
        return problems
    }

    /// The decoder settings these flags give.
    func decodingOptions(collectWaypoints: Bool = false) -> FeedDecodingOptions {
        FeedDecodingOptions(
            defaultDate: date.flatMap(Self.days(fromDate:)), collectWaypoints: collectWaypoints, csvColumns: columnNames)
    }

    /// `--columns` split at commas.
    private var columnNames: [String]? {
        columns.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    /// Days since 1970-01-01 of a `YYYY-MM-DD` date, or `nil` when it is
    /// not one or is outside ``FeedDecodingOptions/datesHeld``.
    static func days(fromDate text: String) -> Int? {
        guard let seconds = RFC3339.secondsSince1970(text + "T00:00:00Z")?.seconds else { return nil }
        let days = Int(seconds / 86_400)
        return FeedDecodingOptions.datesHeld.contains(days) ? days : nil
    }
}
