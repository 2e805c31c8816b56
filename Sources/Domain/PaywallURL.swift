import Foundation

/// The project's paywall page, to which `paywallUrl` adds `pass`, `email` and `origin=app`.
///
/// An absolute `https` URL with a host, or `http` only for `localhost`, `127.0.0.1` and `[::1]` (development);
/// printable ASCII only (international hosts in punycode, other characters percent-encoded), no user or
/// password part, at most 2048 characters. It may have a query and a fragment; both are kept.
public struct PaywallURL: Hashable, Sendable, CustomStringConvertible {
    /// The most characters a paywall URL may have.
    public static let maxLength = 2048
    /// Hosts that may be reached over plain `http`.
    public static let loopbackHosts: Set<String> = ["localhost", "127.0.0.1", "[::1]", "::1"]

    /// The URL as given.
    public let text: String

    private init(text: String) { self.text = text }

    public var description: String { text }

    /// Parses a paywall URL; refuses with `VALIDATION_PAYWALL_URL_FORMAT` naming `field`.
    public static func parse(_ text: String, field: String = "paywallUrl") -> Result<PaywallURL, FieldRefusal> {
        let refusal = FieldRefusal(
            field: field, code: .paywallURLFormat,
            rule: "be an absolute https URL (http only for localhost) without user info, at most \(maxLength) "
                + "characters")
        guard (1...maxLength).contains(text.utf8.count), text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }),
              let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(),
              let host = components.host?.lowercased(), !host.isEmpty,
              components.user == nil, components.password == nil,
              scheme == "https" || (scheme == "http" && loopbackHosts.contains(host)),
              text.lowercased().hasPrefix(scheme + "://")
        else { return .failure(refusal) }
        return .success(PaywallURL(text: text))
    }
}
