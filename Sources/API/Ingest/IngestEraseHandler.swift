import Commands
import Domain
import Foundation
import HTTPServer

/// `POST /v1/m/erase`: a device asks to erase its install (docs/app-ingest.md "Erase"); answers `202 {"ok":true}`
/// whether or not anything was erased, so the answer tells nobody whether an install or its proof exists.
///
/// In order: the body (≤ 1 KiB, also once inflated; 400 `invalid` naming the part), the key (403 `key`),
/// `app.plat`/`app.bid` (403 `app_mismatch`), 10 per minute per client IP (429 `rate_limited`; 503 `unavailable`
/// without Redis), then `EraseInstall.device`: the install is erased when SHA-256 of `secret` is the `dp` its batches
/// carried. Consent does not matter: erasure works in every consent state.
enum IngestEraseHandler {
    /// Bytes an erasure may have, on the wire and once inflated.
    static let bodyLimit = 1024

    static func receive(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let body = try AppEraseBody.parse(IngestBody.bytes(request, limit: bodyLimit))
        guard let app = try environment.model.ingest.lookup.app(publishableKey: body.key) else {
            throw IngestRefusal.key
        }
        if case .failure(let refusal) = IngestAppBinding.check(
            platform: body.platform, bundleId: body.bundleId, app: app.platform, appBundleId: app.bundleId,
            platField: "app.plat", bidField: "app.bid")
        {
            throw refusal
        }
        let decision = environment.rateLimiter.check(environment.ingestEraseLimit, key: environment.clientKey(request))
        if let refusal = APIError.refusal(for: decision) { throw refusal }
        guard let identity = environment.model.identity else { throw IngestRefusal.unavailable(retryAfter: 60) }
        let metadata = EventMetadata(actor: .system("app-erase"), requestId: context.requestID,
                                     correlationId: context.requestID)
        _ = try identity.eraseInstall.device(org: app.orgId, project: app.projectId, app: app.appId,
                                             install: body.install, secret: body.secret, metadata: metadata)
        var response = try IngestResponse.encode(Accepted())
        response.status = 202
        return response
    }

    private struct Accepted: Encodable { var ok = true }
}
