import EventStore

/// Go links (issue 21): creating and listing a project's links and recording their clicks.
public struct LinkModel: Sendable {
    /// A project's links.
    public let lookup: LinkLookup
    public let createLink: CreateGoLink
    public let recordClick: RecordLinkClick
    public let issueProxyKey: IssueProxyKey
    public let revokeProxyKey: RevokeProxyKey
    /// The org of a proxy key.
    public let proxyKeys: ProxyKeyLookup
    /// The link of a click token (an install's `x3c`).
    public let clicks: LinkClickLookup

    /// The link model over `log`.
    public init(log: EventLog) {
        self.lookup = LinkLookup(log: log)
        self.createLink = CreateGoLink(log: log)
        self.recordClick = RecordLinkClick(log: log)
        self.issueProxyKey = IssueProxyKey(log: log)
        self.revokeProxyKey = RevokeProxyKey(log: log)
        self.proxyKeys = ProxyKeyLookup(pool: log.pool)
        self.clicks = LinkClickLookup(pool: log.pool)
    }
}
