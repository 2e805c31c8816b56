import Foundation

/// Adds the app's identity to a paywall URL: `origin=app&id=<id>` after the URL's own query (replacing any
/// `origin` or `id` already there) and before its fragment, the value percent-encoded (everything outside RFC 3986
/// unreserved escaped). The paywall then records the payment for that id (docs/identity.md, "Who is the buyer on
/// the paywall").
enum PaywallLink {
    static func adding(id: String, to url: URL) -> URL {
        let text = url.absoluteString
        let (withoutFragment, fragment) = split(text, at: "#")
        let (base, query) = split(withoutFragment, at: "?")
        var pairs = (query ?? "").split(separator: "&", omittingEmptySubsequences: true).map(String.init)
        pairs.removeAll { pair in
            let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? pair
            return name == "origin" || name == "id"
        }
        pairs += ["origin=app", "id=" + encode(id)]
        let result = base + "?" + pairs.joined(separator: "&") + (fragment.map { "#" + $0 } ?? "")
        return URL(string: result) ?? url
    }

    static func encode(_ value: String) -> String {
        let unreserved = CharacterSet(charactersIn:
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    private static func split(_ text: String, at separator: Character) -> (String, String?) {
        guard let index = text.firstIndex(of: separator) else { return (text, nil) }
        return (String(text[..<index]), String(text[text.index(after: index)...]))
    }
}
