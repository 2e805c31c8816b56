import Commands
import Domain
import Foundation
import HTTPServer

/// `GET /v1/m/config/{pk}?plat=&bid=&sdk=`: the AppConfig of the app whose publishable key is `pk`
/// (docs/app-ingest.md).
///
/// In order: the per-IP limit (60/min; 429 `rate_limited`, 503 `unavailable` without Redis), the key (403 `key` for
/// a malformed, unknown or rotated-away one), `plat` and `bid` (400 `invalid` naming the missing one, 403
/// `app_mismatch` when they are not the app's). Answers `Cache-Control: private, max-age=300`.
enum IngestConfigHandler {
    static func config(_ request: Request, _ context: RequestContext, _ environment: Environment,
                       publishableKey: String) throws -> Response {
        let decision = environment.rateLimiter.check(environment.ingestConfigLimit, key: environment.clientKey(request))
        if let refusal = APIError.refusal(for: decision) { throw refusal }
        guard let app = try environment.model.ingest.lookup.app(publishableKey: publishableKey) else {
            throw IngestRefusal.key
        }
        if case .failure(let refusal) = IngestAppBinding.check(
            platform: request.query["plat"], bundleId: request.query["bid"], app: app.platform,
            appBundleId: app.bundleId)
        {
            throw refusal
        }
        let config = AppConfig(rev: app.rev, appId: app.appId, platform: app.platform, bundleId: app.bundleId,
                               settings: app.settings)
        var response = JSONResponse.raw(AppConfigJSON.bytes(config))
        response.headers.add("Cache-Control", "private, max-age=300")
        return response
    }
}
