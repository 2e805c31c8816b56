/// Each route's operation in `/openapi.json`: the switch is exhaustive, so a new route does not compile until it
/// says what it takes and answers.
extension Route {
    var operation: OpenAPIOperation {
        switch self {
        case .appDeliveries: return AppOperations.deliveries
        case .storeNotification(let store, _): return StoreOperations.operation(store)
        case .forwardedNotification: return SurfaceOperations.forwarded
        case .healthz: return OpsOperations.healthz
        case .readyz: return OpsOperations.readyz
        case .openAPI: return OpsOperations.openAPI
        case .docs: return OpsOperations.docs
        case .docsScript: return OpsOperations.docsScript
        case .project: return ProjectOperations.show
        case .updateProject: return ProjectOperations.update
        case .createUser: return BuyerOperations.createUser
        case .user: return BuyerOperations.user
        case .userEntitlements: return BuyerOperations.entitlements
        case .events: return BuyerOperations.events
        case .createPayment: return PaymentOperations.create
        case .refundPayment: return PaymentOperations.refund
        case .eraseUser: return ErasureOperations.eraseUser
        case .eraseByEmail: return ErasureOperations.eraseByEmail
        case .publicEntitlements: return PublicOperations.entitlements
        case .paywallBuyer: return PublicOperations.paywallBuyer
        case .postPaymentPage: return PublicOperations.postPaymentPage
        case .captureFingerprint: return FingerprintOperations.capture
        case .resolveByFingerprint: return FingerprintOperations.resolve
        case .resolveCode: return PublicOperations.resolveCode
        case .emailRecoveryRequest: return PublicOperations.emailRecovery
        case .createApp: return AppOperations.create
        case .apps: return AppOperations.list
        case .app: return AppOperations.show
        case .updateApp: return AppOperations.update
        case .rotateStoreToken: return AppOperations.rotateToken
        case .addDestination: return AppOperations.addDestination
        case .removeDestination: return AppOperations.removeDestination
        case .appAccountToken: return AppOperations.appAccountToken
        case .createCampaign: return AffiliateOperations.createCampaign
        case .campaigns: return AffiliateOperations.campaigns
        case .createAffiliate: return AffiliateOperations.createAffiliate
        case .affiliates: return AffiliateOperations.affiliates
        case .affiliateStatement: return CommissionOperations.statement
        case .affiliateLink: return AffiliateOperations.link
        case .bind: return AffiliateOperations.bind
        case .auditHeads: return AuditOperations.heads
        case .auditKeys: return AuditOperations.keys
        case .paymentReport: return ReportOperations.payments
        case .userTimeline: return DiagnosticsOperations.userTimeline
        case .paymentTimeline: return DiagnosticsOperations.paymentTimeline
        case .handoffReport: return DiagnosticsOperations.handoffReport
        case .createDashboardLink: return DiagnosticsOperations.createDashboardLink
        case .dashboard: return DiagnosticsOperations.dashboard
        case .ingestConfig: return IngestOperations.config
        case .ingestBatch: return IngestOperations.batch
        case .ingestRecording: return RecordingOperations.packet
        case .appRecordings: return RecordingOperations.list
        case .ingestLead: return IngestOperations.lead
        case .appLeads: return AppOperations.leads
        case .ingestErase: return IngestOperations.erase
        case .eraseAppUsers: return ErasureOperations.eraseAppUsers
        case .ingestInstall: return IngestOperations.install
        case .appInstalls: return InstallReadOperations.installs
        case .createLink: return LinkOperations.create
        case .links: return LinkOperations.list
        case .createProxyKey: return ProxyKeyOperations.create
        case .proxyKeys: return ProxyKeyOperations.list
        case .revokeProxyKey: return ProxyKeyOperations.revoke
        case .goLink: return LinkOperations.follow
        case .createReplayLink: return ReplayOperations.createLink
        case .replay: return ReplayOperations.page
        case .replayEvents: return ReplayOperations.events
        case .replayAsset: return ReplayOperations.screenshot
        case .replayPlayerScript: return ReplayOperations.script
        case .replayPlayerStyle: return ReplayOperations.style
        case .ingestPostback(_, _, let trailingSlash): return PostbackOperations.copy(trailingSlash: trailingSlash)
        case .appPostbacks: return PostbackOperations.list
        case .appConversions: return IngestReadOperations.conversions
        case .appSessions: return IngestReadOperations.sessions
        case .appExport: return IngestReadOperations.export
        }
    }
}
