import Foundation

/// A real browser for tests of the HTML reports: Debian's
/// `chromium-headless-shell` (installed by `Scripts/setup.sh`), run as
/// root without its sandbox, with every host name unresolvable so that
/// nothing can be fetched.
public enum HeadlessBrowser {
    /// The browser: `REPEAT_BROWSER` if set, else the first of
    /// `chromium-headless-shell` and `chromium` found in /usr/bin; `nil`
    /// when there is none.
    public static var path: String? {
        if let override = environment("REPEAT_BROWSER") { return override }
        return ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// What the browser made of a page.
    public struct Rendering: Sendable {
        /// The messages the page wrote to its console (errors included:
        /// an uncaught exception, a resource that failed to load, a
        /// console.error) as the browser logged them.
        public var consoleMessages: [String]
        /// The document as parsed, serialised (`--dump-dom`).
        public var dom: String
    }

    /// Loads the file at `page` twice: once for its DOM and console, once
    /// to save a `width`×`height` screenshot at `screenshot` (PNG).
    public static func render(page: String, screenshot: String, width: Int = 1280, height: Int = 2000) throws -> Rendering {
        guard let browser = path else { throw CocoaError(.fileNoSuchFile) }
        let profile = temporaryDirectory("repeat-browser")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let common = [
            "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--user-data-dir=" + profile,
            "--host-resolver-rules=MAP * ~NOTFOUND", "--enable-logging=stderr", "--v=0",
        ]
        let url = URL(fileURLWithPath: page).absoluteString
        let dump = try runProcess(browser, common + ["--dump-dom", url])
        let shot = try runProcess(browser, common + ["--screenshot=" + screenshot, "--window-size=\(width),\(height)", url])
        let console = (dump.stderr + shot.stderr).split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
        return Rendering(consoleMessages: console, dom: dump.stdout)
    }
}
