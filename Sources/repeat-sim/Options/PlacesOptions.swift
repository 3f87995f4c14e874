import ArgumentParser

/// Where `replay` finds its places and tasks.
struct PlacesOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Regions to watch: CSV (id,lat,lon,radius[,task]), GeoJSON, KML placemarks (Points --radius wide unless a radius data item says, Polygons), or GPX waypoints (named after them, --radius wide).",
            valueName: "file"))
    var regions: String?

    @Option(help: ArgumentHelp("Radius in metres of each GPX waypoint or KML point in --regions.", valueName: "metres"))
    var radius: Double = 100

    @Option(
        help: ArgumentHelp(
            "Tasks file (JSON, as `task import` reads) whose places and repeat rules to replay.", valueName: "file"))
    var tasks: String?
}
