/// The links in the identity answers: the paywall with a pass, the app's return link, the Play install link.
///
/// Values are percent-encoded with everything outside RFC 3986's unreserved set escaped (so `+`, `@`, `&`, `=`
/// and spaces in an e-mail survive any query parser).
public enum HandoffLinks {
    /// The paywall URL plus `pass=<pass>&email=<e-mail>&origin=app`, in that order; no `email` when nil.
    ///
    /// The base's own query parameters are kept; the new ones go after them (with `?` or `&` as needed) and
    /// before a `#fragment`.
    public static func paywallURL(base: PaywallURL, pass: String, email: String?) -> String {
        var parameters = ["pass=" + ASCII.percentEncode(pass)]
        if let email { parameters.append("email=" + ASCII.percentEncode(email)) }
        parameters.append("origin=app")
        return appendingQuery(parameters.joined(separator: "&"), to: base.text)
    }

    /// `<scheme>://handoff?code=<code>`: opens the app with the handoff code.
    public static func returnLink(scheme: ReturnScheme, code: HandoffCode) -> String {
        "\(scheme.text)://handoff?code=\(code.text)"
    }

    /// `https://play.google.com/store/apps/details?id=<package>&referrer=<token>`: Play hands `token` to the app
    /// as its install referrer.
    public static func playStoreURL(package: AndroidPackage, token: InstallToken) -> String {
        "https://play.google.com/store/apps/details?id=\(package.text)&referrer=\(token.text)"
    }

    /// `url` with `query` (already encoded) appended to its query, before any fragment.
    static func appendingQuery(_ query: String, to url: String) -> String {
        let fragmentStart = url.firstIndex(of: "#") ?? url.endIndex
        let beforeFragment = url[..<fragmentStart]
        let fragment = url[fragmentStart...]
        let separator: String
        if !beforeFragment.contains("?") {
            separator = "?"
        } else if beforeFragment.hasSuffix("?") || beforeFragment.hasSuffix("&") {
            separator = ""
        } else {
            separator = "&"
        }
        return beforeFragment + separator + query + fragment
    }
}
