import FeedParsing
import Simulation

/// The manifest of a generation (`--manifest FILE.json`): what makes a run
/// citable and repeatable — the seed, every parameter, the counts, and the
/// SHA-256 of each output.
enum GenerateManifest {
    /// The manifest as pretty-printed JSON text.
    static func text(
        _ simulation: FeedSimulation, _ outputs: GenerateOutputs, parameters: JSONLine, summary: GenerateSummary
    ) -> String {
        var counts = JSONLine()
        counts.add("devices", simulation.devices.count)
        counts.add("fixes", summary.fixes)
        counts.add("invalid", summary.invalid)
        counts.add("truth_points", summary.truthPoints)
        let files = summary.outputs.map { output -> String in
            var line = JSONLine()
            line.add("role", output.role)
            line.add("path", output.path)
            line.add(
                "format",
                output.role == "feed" ? outputs.format.rawValue : GenerateOutputs.format(ofPath: output.path)?.rawValue ?? "csv")
            line.add("bytes", output.bytes)
            line.add("sha256", output.sha256)
            return "    " + line.string
        }
        return """
            {
              "tool": "repeat-sim generate",
              "seed": \(simulation.seed),
              "parameters": \(parameters.string),
              "counts": \(counts.string),
              "outputs": [
            \(files.joined(separator: ",\n"))
              ]
            }

            """
    }
}
