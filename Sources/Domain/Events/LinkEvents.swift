/// The stream names of go-link events; every one lives in its project's organization's log.
public enum LinkStreams {
    /// A go link's stream: its creation.
    public static func link(_ id: GoLinkID) -> String { "go-link-\(id)" }
    /// A proxy key's stream: its issue.
    public static func proxyKey(_ id: ProxyKeyID) -> String { "proxy-key-\(id)" }
}

/// A go link was created in a project (`POST /s2s/v1/links`, `handoff admin link create`). Absent members were not
/// set. Clicks are not events (docs/app-links.md): they are stored as rows, like app ingest.
public struct GoLinkCreated: EventPayload, Equatable {
    public static let eventType = "GoLinkCreated"
    public static let schemaVersion = 1
    public var linkId: String
    public var projectId: String
    /// The global token (`GET /v1/go/{token}`); not a secret: it is printed on every shared link.
    public var token: String
    public var code: String?
    public var iosAppId: String?
    public var androidAppId: String?
    public var fallbackUrl: String
    public var utm: LinkUTM
    public var appStoreProviderToken: String?
    public var appStoreCampaignToken: String?

    public init(linkId: GoLinkID, projectId: ProjectID, token: LinkToken, draft: GoLinkDraft) {
        self.linkId = linkId.description
        self.projectId = projectId.description
        self.token = token.text
        self.code = draft.code
        self.iosAppId = draft.iosAppId?.description
        self.androidAppId = draft.androidAppId?.description
        self.fallbackUrl = draft.fallbackUrl
        self.utm = draft.utm
        self.appStoreProviderToken = draft.appStoreProviderToken
        self.appStoreCampaignToken = draft.appStoreCampaignToken
    }
}

/// An organization got a proxy key for its first-party proxy (`handoff admin proxy-key create`). The key itself is
/// never recorded: only its SHA-256 (lowercase hex), the visible prefix and the domains it was registered for.
public struct ProxyKeyIssued: EventPayload, Equatable {
    public static let eventType = "ProxyKeyIssued"
    public static let schemaVersion = 1
    public var proxyKeyId: String
    public var keyHash: String
    public var visiblePrefix: String
    public var domains: [String]

    public init(proxyKeyId: ProxyKeyID, keyHash: String, visiblePrefix: String, domains: [String]) {
        self.proxyKeyId = proxyKeyId.description
        self.keyHash = keyHash
        self.visiblePrefix = visiblePrefix
        self.domains = domains
    }
}

/// An organization revoked one of its proxy keys (`DELETE /s2s/v1/proxy-keys/{proxyKeyId}`): from the commit on, the
/// key resolves no link code and vouches for no forwarded address. Recorded once per key.
public struct ProxyKeyRevoked: EventPayload, Equatable {
    public static let eventType = "ProxyKeyRevoked"
    public static let schemaVersion = 1
    public var proxyKeyId: String

    public init(proxyKeyId: ProxyKeyID) {
        self.proxyKeyId = proxyKeyId.description
    }
}
