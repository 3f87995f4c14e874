import ArgumentParser

/// Where `replay` finds its places and tasks.
struct PlacesOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Regions to watch: CSV (id,lat,lon,radius[,task]) or GeoJSON.", valueName: "file"))
    var regions: String?

    @Option(
        help: ArgumentHelp(
            "Tasks file (JSON, as `task import` reads) whose places and repeat rules to replay.", valueName: "file"))
    var tasks: String?
}
