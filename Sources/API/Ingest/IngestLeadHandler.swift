import Commands
import Domain
import Foundation
import HTTPServer

/// `POST /v1/m/lead`: a lead form the app's SDK sends (docs/app-leads.md); answers `202 {"ok":true}`.
///
/// In order: the body (≤ 8 KiB, also once inflated; 400 `invalid` naming the part), the key (403 `key`),
/// `app.plat`/`app.bid` (403 `app_mismatch`), the app's "leads from the app" setting (403 `lead_disabled`), the
/// limits — 3 per minute per project and client IP, and per project and install (429 `rate_limited`; 503
/// `unavailable` without Redis) — then `RecordAppLead`, which records one lead per double submit. Consent does not
/// matter: leads are taken in every consent state.
enum IngestLeadHandler {
    /// Bytes a lead may have, on the wire and once inflated.
    static let bodyLimit = 8192

    static func receive(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let body = try AppLeadBody.parse(IngestBody.bytes(request, limit: bodyLimit))
        guard let app = try environment.model.ingest.lookup.app(publishableKey: body.key) else {
            throw IngestRefusal.key
        }
        if case .failure(let refusal) = IngestAppBinding.check(
            platform: body.platform, bundleId: body.bundleId, app: app.platform, appBundleId: app.bundleId,
            platField: "app.plat", bidField: "app.bid")
        {
            throw refusal
        }
        guard app.settings.leadsEnabled else { throw IngestRefusal.leadDisabled }
        guard let identity = environment.model.identity else { throw IngestRefusal.unavailable(retryAfter: 60) }
        let install = identity.recordAppLead.installHash(app: app.appId, install: body.install)
        for key in ["ip:\(app.projectId):\(environment.clientKey(request))", "inst:\(app.projectId):\(install)"] {
            let decision = environment.rateLimiter.check(environment.ingestLeadLimit, key: key)
            if let refusal = APIError.refusal(for: decision) { throw refusal }
        }
        let metadata = EventMetadata(actor: .system("app-lead"), requestId: context.requestID,
                                     correlationId: context.requestID)
        _ = try identity.recordAppLead.run(RecordAppLead.Submission(
            orgId: app.orgId, projectId: app.projectId, appId: app.appId, install: body.install,
            sessionId: body.session, form: body.form, eventId: body.eventId, email: body.email,
            firstName: body.firstName, message: body.message, marketingConsent: body.marketingConsent,
            fillMs: body.fillMs), metadata: metadata)
        var response = try IngestResponse.encode(Accepted())
        response.status = 202
        return response
    }

    private struct Accepted: Encodable { var ok = true }
}
