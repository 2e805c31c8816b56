import HTTPServer

/// Sends each route to its handler: `(Request, [RequestContext,] Environment) throws -> Response`.
enum Handlers {
    static func handle(
        _ route: Route, _ request: Request, _ context: RequestContext, _ environment: Environment
    ) throws -> Response {
        switch route {
        case .appDeliveries(let appId): return try DeliveryHandler.list(request, context, environment, appId: appId)
        case .storeNotification(let store, let token):
            return try StoreIntakeHandler.receive(request, context, environment, store: store, token: token)
        case .forwardedNotification(let surfaceId):
            return try SurfaceIntakeHandler.receive(request, context, environment, surfaceId: surfaceId)
        case .healthz: return HealthHandler.healthz(request, environment)
        case .readyz: return try HealthHandler.readyz(request, environment)
        case .openAPI: return OpenAPIHandler.document(request, environment)
        case .docs: return DocsHandler.page(request, environment)
        case .docsScript: return try DocsHandler.script(request, environment)
        case .project: return try ProjectHandler.show(request, context.tenant(), environment)
        case .updateProject: return try ProjectHandler.update(request, context, environment)
        case .createUser: return try UserHandler.create(request, context, environment)
        case .createPayment: return try PaymentHandler.create(request, context, environment)
        case .eraseUser(let guid):
            return try ErasureHandler.eraseUser(request, context, environment, guid: guid)
        case .eraseByEmail:
            return try ErasureHandler.eraseByEmail(request, context, environment)
        case .refundPayment(let paymentId):
            return try PaymentHandler.refund(request, context, environment, paymentId: paymentId)
        case .user(let guid): return try LookupHandler.user(request, context, environment, guid: guid)
        case .userEntitlements(let guid):
            return try LookupHandler.entitlements(request, context, environment, guid: guid)
        case .publicEntitlements: return try LookupHandler.publicEntitlements(request, environment)
        case .events: return try EventsHandler.history(request, context, environment)
        case .paywallBuyer: return try PaywallBuyerHandler.buyer(request, environment)
        case .postPaymentPage(let token): return try PostPaymentPageHandler.page(request, environment, token: token)
        case .captureFingerprint: return try FingerprintHandler.capture(request, context, environment)
        case .resolveByFingerprint: return try FingerprintHandler.resolve(request, context, environment)
        case .resolveCode: return try ResolveHandler.resolve(request, context, environment)
        case .emailRecoveryRequest: return try EmailRecoveryHandler.request(request, context, environment)
        case .createApp: return try AppHandler.create(request, context, environment)
        case .apps: return try AppHandler.list(request, context, environment)
        case .app(let appId): return try AppHandler.show(request, context, environment, appId: appId)
        case .updateApp(let appId): return try AppHandler.update(request, context, environment, appId: appId)
        case .rotateStoreToken(let appId):
            return try AppHandler.rotateToken(request, context, environment, appId: appId)
        case .addDestination(let appId):
            return try AppDestinationHandler.add(request, context, environment, appId: appId)
        case .removeDestination(let appId, let destinationId):
            return try AppDestinationHandler.remove(request, context, environment, appId: appId,
                                                    destinationId: destinationId)
        case .appAccountToken: return try AppAccountTokenHandler.mint(request, context, environment)
        case .createCampaign: return try AffiliateCampaignHandler.create(request, context, environment)
        case .campaigns: return try AffiliateCampaignHandler.list(request, context, environment)
        case .createAffiliate: return try AffiliateHandler.create(request, context, environment)
        case .affiliates: return try AffiliateHandler.list(request, context, environment)
        case .affiliateStatement(let affiliateId):
            return try CommissionStatementHandler.statement(request, context, environment, affiliateId: affiliateId)
        case .affiliateLink(let refCode):
            return try ClickHandler.follow(request, context, environment, refCode: refCode)
        case .bind: return try BindHandler.bind(request, context, environment)
        case .auditHeads: return try AuditHandler.heads(request, context, environment)
        case .auditKeys: return try AuditHandler.keys(request, context, environment)
        case .paymentReport: return try PaymentReportHandler.report(request, context, environment)
        case .userTimeline(let guid): return try TimelineHandler.buyer(request, context, environment, guid: guid)
        case .paymentTimeline(let paymentId):
            return try TimelineHandler.payment(request, context, environment, paymentId: paymentId)
        case .handoffReport: return try HandoffReportHandler.report(request, context, environment)
        case .createDashboardLink: return try DashboardHandler.createLink(request, context, environment)
        case .dashboard(let token): return try DashboardHandler.page(request, environment, token: token)
        case .ingestConfig(let publishableKey):
            return try IngestConfigHandler.config(request, context, environment, publishableKey: publishableKey)
        case .ingestBatch: return try IngestBatchHandler.receive(request, context, environment)
        case .ingestRecording: return try RecordingPacketHandler.receive(request, context, environment)
        case .appRecordings(let appId):
            return try RecordingListHandler.list(request, context, environment, appId: appId)
        case .ingestLead: return try IngestLeadHandler.receive(request, context, environment)
        case .appLeads(let appId): return try AppLeadsHandler.list(request, context, environment, appId: appId)
        case .ingestErase: return try IngestEraseHandler.receive(request, context, environment)
        case .eraseAppUsers(let project):
            return try AppUserErasureHandler.erase(request, context, environment, project: project)
        case .ingestInstall: return try IngestInstallHandler.receive(request, context, environment)
        case .appInstalls(let appId): return try AppInstallsHandler.list(request, context, environment, appId: appId)
        case .createLink: return try LinkHandler.create(request, context, environment)
        case .links: return try LinkHandler.list(request, context, environment)
        case .createProxyKey: return try ProxyKeyHandler.create(request, context, environment)
        case .proxyKeys: return try ProxyKeyHandler.list(request, context, environment)
        case .revokeProxyKey(let id): return try ProxyKeyHandler.revoke(request, context, environment, id: id)
        case .goLink(let ref): return try GoHandler.follow(request, context, environment, ref: ref)
        case .ingestPostback(let kind, let endpoint, _):
            return try PostbackCopyHandler.receive(request, context, environment, kind: kind, endpoint: endpoint)
        case .appPostbacks(let appId): return try AppPostbacksHandler.list(request, context, environment, appId: appId)
        case .createReplayLink(let appId):
            return try ReplayHandler.createLink(request, context, environment, appId: appId)
        case .replay(let token): return try ReplayHandler.page(request, environment, token: token)
        case .replayEvents(let token): return try ReplayHandler.events(request, environment, token: token)
        case .replayAsset(let token, let sha):
            return try ReplayHandler.screenshot(request, environment, token: token, sha: sha)
        case .replayPlayerScript: return try ReplayHandler.asset(request, environment, script: true)
        case .replayPlayerStyle: return try ReplayHandler.asset(request, environment, script: false)
        case .appConversions(let appId):
            return try AppConversionsHandler.list(request, context, environment, appId: appId)
        case .appSessions(let appId): return try AppSessionsHandler.list(request, context, environment, appId: appId)
        case .appExport(let appId): return try AppExportHandler.export(request, context, environment, appId: appId)
        }
    }
}
