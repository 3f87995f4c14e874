import ArgumentParser

/// The files `replay` writes besides stdout: GeoJSON and the HTML report.
struct ReplayFileOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Also write the replay as GeoJSON (regions, tracks, reminders) for QGIS or geojson.io.", valueName: "file"))
    var geojson: String?

    @Option(
        help: ArgumentHelp(
            "Also write a self-contained HTML report: a map of the tracks, places and reminders, a timeline per task, "
                + "and the counts.",
            valueName: "file.html"))
    var report: String?
}
