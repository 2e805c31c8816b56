import Foundation

/// Where an app's notifications are forwarded: the forward URL (the app's default `x3` destination) and every other
/// destination's URL.
///
/// The syntax, by `pattern`: `http://` or `https://` (either case), a host name (DNS labels of 1–63 letters, digits,
/// `-`, `_`, the last one starting with a letter: never an IP address), an optional port up to 65535, then path and
/// query of RFC 3986 characters (`%` only before two hex digits); no user info, no fragment (a POST target has none),
/// no white space or non-ASCII (international hosts in punycode). At most 2048 characters, the host at most 253 —
/// the name limits of DNS, which the send-time check (`ForwardURL`) applies too, so a URL taken here is never refused
/// there as malformed. The host's length is a negative lookahead in the pattern (no 254 host characters in a row after
/// `://`), so a client generated from the document never sends a longer one: generators that cannot run a lookahead
/// produce nothing for it and filter their output through the whole pattern.
///
/// `validate` is the one check every forward URL passes when it is set; rules about the address a host resolves to
/// (no loopback, private or link-local networks) belong there too, and are checked again when a forward is sent.
public struct AppForwardURL: Hashable, Sendable, CustomStringConvertible {
    /// The most characters a forward URL may have.
    public static let maxLength = 2048
    /// The most characters its host may have (a DNS name).
    public static let maxHostLength = 253

    /// The syntax (the length apart) as one regular expression.
    public static let pattern: String = {
        func anyCase(_ word: String) -> String { word.map { "[\($0.uppercased())\($0)]" }.joined() }
        // A DNS name whose last label starts with a letter: no IP address in any spelling (decimal, octal, hex,
        // short, bracketed IPv6) — the address a name resolves to is checked when a forward is sent.
        let hostLength = "(?![A-Za-z0-9_.-]{\(maxHostLength + 1)})"
        let host = "(?:[A-Za-z0-9_-]{1,63}\\.)*[A-Za-z][A-Za-z0-9_-]{0,62}"
        let port = "(?::(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?"
        let character = "(?:[A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})"
        let queryCharacter = "(?:[A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})"
        return "^(?:\(anyCase("https"))|\(anyCase("http")))://\(hostLength)\(host)\(port)(?:/\(character)*)?"
            + "(?:\\?\(queryCharacter)*)?$"
    }()

    private static let grammar = WholeTextPattern(pattern)

    /// The URL as given.
    public let text: String

    private init(text: String) { self.text = text }

    public var description: String { text }

    /// Checks a forward or destination URL; refuses with `VALIDATION_FORWARD_URL_FORMAT` naming `field`.
    public static func validate(_ text: String, field: String = "forwardUrl") -> Result<AppForwardURL, FieldRefusal> {
        guard (1...maxLength).contains(text.utf8.count), grammar.matches(text) else {
            return .failure(FieldRefusal(
                field: field, code: .forwardURLFormat,
                rule: "be an absolute http or https URL with a host name (not an IP address), without user info or "
                    + "fragment, at most \(maxLength) characters"))
        }
        return .success(AppForwardURL(text: text))
    }
}
