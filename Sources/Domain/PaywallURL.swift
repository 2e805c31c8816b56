import Foundation

/// The project's paywall page, to which `paywallUrl` adds `pass`, `email` and `origin=app`.
///
/// An absolute URL by `pattern`: `https://` and a host name (letters, digits, `-`, `_`, dot-separated) or `[::1]`,
/// or `http://` only for `localhost`, `127.0.0.1` and `[::1]` (development); scheme and host in any case; an optional
/// port up to 65535; then path, query and fragment of RFC 3986 characters (unreserved, sub-delimiters, `:`, `@`, `/`,
/// `?`, and `%` only before two hex digits). So no user or password part, no spaces, no non-ASCII (international
/// hosts in punycode, other characters percent-encoded). At most 2048 characters. Query and fragment are kept.
public struct PaywallURL: Hashable, Sendable, CustomStringConvertible {
    /// The most characters a paywall URL may have.
    public static let maxLength = 2048
    /// Hosts that may be reached over plain `http`.
    public static let loopbackHosts: Set<String> = ["localhost", "127.0.0.1", "[::1]"]

    /// The whole rule (the length apart) as one regular expression.
    public static let pattern: String = {
        func anyCase(_ word: String) -> String {
            word.map { $0.isLetter ? "[\($0.uppercased())\($0)]" : $0 == "." ? "\\." : String($0) }.joined()
        }
        let loopback = loopbackHosts.sorted().map { $0 == "[::1]" ? "\\[::1\\]" : anyCase($0) }
            .joined(separator: "|")
        let host = "[A-Za-z0-9_-]+(?:\\.[A-Za-z0-9_-]+)*"
        let port = "(?::(?:[0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?"
        let character = "(?:[A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})"
        let queryCharacter = "(?:[A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})"
        return "^(?:\(anyCase("https"))://(?:\(host)|\\[::1\\])|\(anyCase("http"))://(?:\(loopback)))\(port)"
            + "(?:/\(character)*)?(?:\\?\(queryCharacter)*)?(?:#\(queryCharacter)*)?$"
    }()

    private static let grammar = WholeTextPattern(pattern)

    /// The URL as given.
    public let text: String

    private init(text: String) { self.text = text }

    public var description: String { text }

    /// The host in lowercase (`[::1]` with its brackets).
    public var host: String {
        let rest = text.utf8.split(separator: UInt8(ascii: "/"), maxSplits: 2, omittingEmptySubsequences: false)[2]
        let end = rest.first == UInt8(ascii: "[")
            ? rest.firstIndex(of: UInt8(ascii: "]")).map(rest.index(after:)) ?? rest.endIndex
            : rest.firstIndex(where: { ":/?#".utf8.contains($0) }) ?? rest.endIndex
        return String(decoding: rest[..<end], as: UTF8.self).lowercased()
    }

    /// Parses a paywall URL; refuses with `VALIDATION_PAYWALL_URL_FORMAT` naming `field`.
    public static func parse(_ text: String, field: String = "paywallUrl") -> Result<PaywallURL, FieldRefusal> {
        guard (1...maxLength).contains(text.utf8.count), grammar.matches(text) else {
            return .failure(FieldRefusal(
                field: field, code: .paywallURLFormat,
                rule: "be an absolute https URL (http only for localhost) without user info, at most \(maxLength) "
                    + "characters"))
        }
        return .success(PaywallURL(text: text))
    }
}
