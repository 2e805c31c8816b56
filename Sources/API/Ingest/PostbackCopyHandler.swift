import Commands
import Domain
import Foundation
import HTTPServer

/// `POST /v1/m/postbacks/{kind}/{endpoint}` (docs/postbacks.md): a copy of an Apple postback, forwarded by the
/// organization's first-party proxy from `/.well-known/skadnetwork/report-attribution/` (`kind` `skan`) or
/// `/.well-known/appattribution/report-attribution/` (`aak`). The path is served with or without its trailing slash,
/// never redirected (Apple's device does not follow redirects).
///
/// In order: `kind` and `endpoint` (400 `invalid`), the proxy key in `X-Handoff-Proxy-Key` (403 `key`), the body
/// (400 `invalid` naming the member), the App Store id registered in an iOS app of the key's organization (403
/// `app_mismatch`), then the signature with Apple's keys and the write. Every stored, duplicate, failed or capped copy
/// answers `200 {"ok":true}`: Apple's device only retries on other statuses, and a forger learns nothing.
enum PostbackCopyHandler {
    static func receive(_ request: Request, _ context: RequestContext, _ environment: Environment, kind text: String,
                        endpoint: String) throws -> Response {
        guard let kind = PostbackKind(rawValue: text) else { throw IngestRefusal.invalid("kind must be skan or aak") }
        guard endpoint == PostbackKind.endpoint else {
            throw IngestRefusal.invalid("endpoint must be \(PostbackKind.endpoint)")
        }
        guard let key = request.headers[ProxyKey.header],
              let org = try environment.model.links.proxyKeys.org(of: key)
        else { throw IngestRefusal.key }
        let facts: PostbackFacts
        let signature: PostbackSignature
        switch kind {
        case .skan:
            let postback = try SKANPostback.parse(request.body).get()
            (facts, signature) = (postback.facts, PostbackVerifier.apple.verify(postback))
        case .aak:
            let postback = try AAKPostback.parse(request.body).get()
            (facts, signature) = (postback.facts, PostbackVerifier.apple.verify(postback))
        }
        let store = environment.model.ingest.postbacks
        guard let app = try store.app(org: org, appStoreId: facts.appStoreId) else { throw IngestRefusal.appMismatch }
        _ = try store.write(facts, signature: signature, org: org, project: app.projectId, app: app.appId,
                            now: environment.clock())
        return try IngestResponse.encode(Accepted())
    }

    private struct Accepted: Encodable { var ok = true }
}
