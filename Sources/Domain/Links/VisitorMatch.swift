import Foundation

/// Which earlier web visit a click belongs to (`GET /v1/go/{ref}`): the web session the link names with `?s=`, else
/// the session of the same browser's latest click in the project within 30 minutes — "the same browser" being the
/// daily visitor hash (a keyed hash of IP, user agent and UTC day, computed by the caller).
public enum VisitorMatch {
    /// How long an earlier sighting of the same browser counts.
    public static let window: TimeInterval = 30 * 60
    /// A web session id as `?s=` may give it.
    public static let sessionCharacters = ASCIISet("A-Za-z0-9._:-")
    public static let sessionLengths = 1...64

    /// An earlier click of the same visitor hash.
    public struct Sighting: Sendable, Equatable {
        public var at: Date
        public var webSessionId: String?

        public init(at: Date, webSessionId: String?) {
            self.at = at
            self.webSessionId = webSessionId
        }
    }

    /// `?s=` when it is a well-formed session id, else the newest sighting within `window` before `now` that has a
    /// session, else nil. A malformed `?s=` is ignored, never refused: a link must always lead somewhere.
    public static func session(given: String?, earlier: [Sighting], now: Date) -> String? {
        if let given, sessionLengths.contains(given.utf8.count), sessionCharacters.containsAll(given) {
            return given
        }
        return earlier.filter { $0.webSessionId != nil && $0.at <= now && now.timeIntervalSince($0.at) <= window }
            .max { $0.at < $1.at }?.webSessionId
    }
}
