import Foundation

/// A project's configured AppsFlyer or Adjust link, checked for its tracker, and the deep links built from it.
///
/// `parse` takes an absolute https URL (the paywall URL rule) and, for Adjust, refuses a universal link
/// (`*.go.link`, `*.adj.st`) without its own non-empty `adj_t` parameter: Adjust answers such a link with 404.
/// Hosts are not otherwise checked: both trackers serve links from branded custom domains too.
///
/// `url(…)` keeps the configured link's own query parameters (in order, as given) and its `#fragment` in place,
/// removes the parameters Handoff owns (`ownedParameters`) so none appears twice, and appends Handoff's after
/// them; values are percent-encoded with everything outside RFC 3986 unreserved escaped (docs/identity.md).
public struct TrackerLink: Hashable, Sendable, CustomStringConvertible {
    /// Where the button that carries the link leads: into the installed app, or to the store for an install.
    public enum Destination: String, Hashable, Sendable, CaseIterable {
        case app, store
    }

    /// `appsflyer` or `adjust`, never `none`.
    public let tracker: ProjectSettings.Tracker
    /// The link as configured.
    public let text: String

    private init(tracker: ProjectSettings.Tracker, text: String) {
        self.tracker = tracker
        self.text = text
    }

    public var description: String { text }

    /// Parses `text` as the link of `tracker`; refuses naming `field` with `VALIDATION_TRACKER_LINK_FORMAT` (not an
    /// https URL, or the tracker is `none`) or `VALIDATION_TRACKER_LINK_ADJ_T_REQUIRED`.
    public static func parse(_ text: String, tracker: ProjectSettings.Tracker,
                             field: String = "trackerLink") -> Result<TrackerLink, FieldRefusal> {
        guard tracker != .none else {
            return .failure(FieldRefusal(field: field, code: .trackerLinkFormat,
                                         rule: "be null while the tracker is none"))
        }
        guard case .success(let url) = PaywallURL.parse(text, field: field) else {
            return .failure(FieldRefusal(field: field, code: .trackerLinkFormat,
                                         rule: "be an absolute https URL without user info"))
        }
        let link = TrackerLink(tracker: tracker, text: text)
        if tracker == .adjust, isAdjustUniversalLinkHost(url.host),
           !link.parts.parameters.contains(where: { $0.name == "adj_t" && !$0.value.isEmpty }) {
            return .failure(FieldRefusal(
                field: field, code: .trackerLinkAdjTRequired,
                rule: "carry its own adj_t parameter: an Adjust *.go.link or *.adj.st link without it answers 404"))
        }
        return .success(link)
    }

    /// The link for one payment: the install `token`, the payment's `paywallId` (if any), the `projectId`, and
    /// the project's `returnScheme` (used by classic Adjust links only); `destination` names the button.
    ///
    /// - AppsFlyer: `deep_link_value=handoff&deep_link_sub1=<token>&af_sub1=<token>[&deep_link_sub2=<paywallId>]`
    ///   `&deep_link_sub3=<projectId>&deep_link_sub4=app|store`.
    /// - Adjust: `user_id=<token>&adj_label=<token>`, and for an `app.adjust.com` link with a return scheme
    ///   `&deep_link=<encoded scheme://handoff?user_id=<token>[&paywall_id=…]&project_id=…&destination=…>`.
    public func url(token: InstallToken, paywallId: String?, projectId: ProjectID, returnScheme: ReturnScheme?,
                    destination: Destination) -> String {
        var ours: [(name: String, value: String)]
        var owned = Self.ownedParameters(tracker)
        switch tracker {
        case .appsflyer:
            ours = [("deep_link_value", "handoff"), ("deep_link_sub1", token.text), ("af_sub1", token.text)]
            if let paywallId { ours.append(("deep_link_sub2", paywallId)) }
            ours += [("deep_link_sub3", projectId.description), ("deep_link_sub4", destination.rawValue)]
        case .adjust, .none:
            ours = [("user_id", token.text), ("adj_label", token.text)]
            if let returnScheme, isClassicAdjust {
                var inner: [(name: String, value: String)] = [("user_id", token.text)]
                if let paywallId { inner.append(("paywall_id", paywallId)) }
                inner += [("project_id", projectId.description), ("destination", destination.rawValue)]
                ours.append(("deep_link", "\(returnScheme.text)://handoff?" + Self.query(inner)))
                owned.insert("deep_link")
            }
        }
        let parts = self.parts
        let kept = parts.rawParameters.filter { !owned.contains(Self.decodedName($0)) }
        let query = (kept + [Self.query(ours)]).joined(separator: "&")
        return parts.base + "?" + query + parts.fragment
    }

    /// The query parameters Handoff sets and therefore removes from the configured link (Adjust's `deep_link` is
    /// added to these only when Handoff sets it).
    public static func ownedParameters(_ tracker: ProjectSettings.Tracker) -> Set<String> {
        switch tracker {
        case .appsflyer:
            return ["deep_link_value", "deep_link_sub1", "af_sub1", "deep_link_sub2", "deep_link_sub3",
                    "deep_link_sub4"]
        case .adjust: return ["user_id", "adj_label"]
        case .none: return []
        }
    }

    /// The hosts (and their subdomains) of Adjust universal links, which need `adj_t`.
    public static let adjustUniversalLinkDomains = ["go.link", "adj.st"]

    /// Matches (unanchored at the end) a link whose host is an Adjust universal-link host, in any case.
    public static let adjustUniversalLinkPattern = "^[Hh][Tt][Tt][Pp][Ss]?://(?:[A-Za-z0-9_-]+\\.)*(?:"
        + adjustUniversalLinkDomains.map { domain in
            domain.map { $0 == "." ? "\\." : "[\($0.uppercased())\($0)]" }.joined()
        }.joined(separator: "|") + ")(?:[:/?#]|$)"

    /// Matches a link whose query has an `adj_t` parameter with a value (the name as written, not percent-encoded).
    public static let adjTParameterPattern = "^[^?#]*\\?(?:[^#]*&)?adj_t=[^&#]"

    /// Whether `host` (lowercase) serves Adjust universal links, which need `adj_t`.
    static func isAdjustUniversalLinkHost(_ host: String) -> Bool {
        adjustUniversalLinkDomains.contains { host == $0 || host.hasSuffix("." + $0) }
    }

    /// Whether this is a classic Adjust tracker link (`app.adjust.com`), which takes a `deep_link` parameter.
    var isClassicAdjust: Bool { (try? PaywallURL.parse(text).get())?.host == "app.adjust.com" }

    /// The link split into what precedes `?`, its non-empty `name=value` parameters as written, and `#fragment`
    /// (with its `#`, or empty). A `?` inside the fragment is part of the fragment.
    var parts: (base: String, rawParameters: [String], parameters: [(name: String, value: String)],
                fragment: String) {
        let fragmentStart = text.firstIndex(of: "#") ?? text.endIndex
        let beforeFragment = text[..<fragmentStart]
        let queryStart = beforeFragment.firstIndex(of: "?") ?? fragmentStart
        let raw = queryStart < fragmentStart
            ? beforeFragment[beforeFragment.index(after: queryStart)...].split(separator: "&").map(String.init) : []
        let decoded = raw.map { part -> (name: String, value: String) in
            let value = part.firstIndex(of: "=").map { String(part[part.index(after: $0)...]) } ?? ""
            return (Self.decodedName(part), value)
        }
        return (String(text[..<queryStart]), raw, decoded, String(text[fragmentStart...]))
    }

    private static func decodedName(_ parameter: String) -> String {
        let name = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return String(name).removingPercentEncoding ?? String(name)
    }

    private static func query(_ parameters: [(name: String, value: String)]) -> String {
        parameters.map { $0.name + "=" + ASCII.percentEncode($0.value) }.joined(separator: "&")
    }
}
