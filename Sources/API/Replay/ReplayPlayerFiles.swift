import Foundation

/// The vendored rrweb-player (Sources/API/RRWebPlayer, README there) read once from the `Handoff_API.resources`
/// folder next to the executable: nil when a deployment ships the binary without it.
enum ReplayPlayerFiles {
    /// rrweb-player's bundle, then the page's start script (`replay.js`): one script for the page to load.
    static let script: [UInt8]? = {
        guard let player = read("rrweb-player.js"), let start = read("replay.js") else { return nil }
        return player + Array("\n;\n".utf8) + start
    }()

    /// rrweb-player's style sheet, then the page's own rules (`replay.css`).
    static let style: [UInt8]? = {
        guard let player = read("rrweb-player.css"), let page = read("replay.css") else { return nil }
        return player + Array("\n".utf8) + page
    }()

    private static func read(_ name: String) -> [UInt8]? {
        let url = Bundle.main.bundleURL.appendingPathComponent("Handoff_API.resources/RRWebPlayer/" + name)
        return FileManager.default.contents(atPath: url.path).map(Array.init)
    }
}
