import ArgumentParser

/// `repeat-sim place …`: the place book in the task store.
struct PlaceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "place",
        abstract: "Keep named places from files you have, for tasks to use by name.",
        discussion: """
            The place book lives in the task store (--db). Import the places of GPX
            waypoints (a GPS's or a map app's export), KML placemarks (Google My Maps,
            Google Earth), GeoJSON (geojson.io, QGIS: Point or Polygon features with a
            "name" property), a CSV name,lat,lon[,radius], or the places you went to in
            Google Takeout's Semantic Location History, or your Home and Work from a
            phone's Timeline.json; then give a task its place by name: task add …
            --at-place Pharmacy. Names are matched without case or accents, and the start
            of a name (or of a word in it) is enough when only one place fits.

            Examples:
              repeat-sim place import Tracks/cat-medicine/places.gpx --radius 150
              repeat-sim place list --near 52.5163,13.3777
              repeat-sim task add --title "Buy cat medicine" --after 10w-14w \\
                --at-place Pharmacy
              repeat-sim place rm Pharmacy
            """,
        subcommands: [PlaceImport.self, PlaceList.self, PlaceRemove.self]
    )
}
