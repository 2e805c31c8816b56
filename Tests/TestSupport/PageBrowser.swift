import Foundation

/// A device in headless Chromium (Tests/Peers/page_browser.py): opens a page with this device's user agent, languages,
/// window and time zone, and answers what the script printed last (its JSON line: the page's title, text, requests).
public struct PageBrowser: Sendable {
    public var userAgent: String
    public var acceptLanguage: String
    public var width: Int
    public var height: Int
    public var timezone: String

    public init(userAgent: String, acceptLanguage: String, width: Int, height: Int, timezone: String) {
        self.userAgent = userAgent
        self.acceptLanguage = acceptLanguage
        self.width = width
        self.height = height
        self.timezone = timezone
    }

    /// What one visit gave: the script's exit, its whole output, and its last JSON line (empty when none parsed).
    public struct Visit: @unchecked Sendable {
        public let termination: ChildProcess.Termination
        public let output: String
        public let result: [String: Any]
    }

    /// Opens `url` and waits up to 120 s for the script; `options` are more of the script's `--name=value` flags
    /// (`--ready-selector=…`, `--screenshot=…`).
    public func open(_ url: String, options: [String] = []) throws -> Visit {
        let child = try ChildProcess([
            "python3", HandoffBinary.packageRoot() + "/Tests/Peers/page_browser.py", "--url=" + url,
            "--user-agent=" + userAgent, "--accept-language=" + acceptLanguage, "--width=\(width)",
            "--height=\(height)", "--timezone=" + timezone, "--timeout=30",
        ] + options)
        let termination = try child.wait(timeout: 120)
        let output = child.output()
        let line = output.split(separator: "\n").last { $0.hasPrefix("{") } ?? ""
        let result = (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
        return Visit(termination: termination, output: output, result: result)
    }
}
