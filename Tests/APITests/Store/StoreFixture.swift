import API
import Commands
import Crypto
import Foundation
import HTTPServer
import Postgres
import TestSupport

/// Store intake over the API edge: apps made over S2S, notifications posted to their store URLs, the log and the
/// entitlements read back. Apple signatures chain to the fixtures' test root.
struct StoreFixture {
    let apps: AppFixture
    let tenant: (org: String, project: String, key: String)

    static let appleRoots = AppleTrustRoots(certificates: [X509Certificate(der: AppleFixtures.certificateFile(
        "testCA.der"))!])

    static func migrated(googleKeys: GoogleOIDCKeys? = nil,
                         storeLimit: RateLimit = TestIdentity.uniqueLimit(count: 1000),
                         clock: @escaping @Sendable () -> Date = { Date() }) throws -> StoreFixture {
        let apps = try AppFixture.migrated(storeLimit: storeLimit, clock: clock,
                                           storeChecks: StoreChecks(appleRoots: appleRoots, googleKeys: googleKeys))
        return StoreFixture(apps: apps, tenant: try apps.tenants.tenant())
    }

    /// An app of the tenant's project (`POST /s2s/v1/apps` with `body`); its id and store token.
    func app(_ body: String, key: String? = nil) throws -> (id: String, token: String) {
        let created = try apps.createApp(key: key ?? tenant.key, body)
        return (created["appId"] as! String, created["storeToken"] as! String)
    }

    /// The iOS app of Apple's fixtures: `com.example`, App Store id 1234.
    func appleApp(key: String? = nil) throws -> (id: String, token: String) {
        try app(#"{"platform":"ios","bundleId":"com.example","appAppleId":1234}"#, key: key)
    }

    /// A new buyer of the tenant (or of `key`'s project): its guid.
    func buyer(_ externalId: String = "u-\(UUID().uuidString)", key: String? = nil) -> String {
        let response = apps.send(.post, "/s2s/v1/users", key: key ?? tenant.key,
                                 body: #"{"externalId":"\#(externalId)"}"#)
        return (jsonObject(response)["guid"] as? String) ?? ""
    }

    /// The app account token the tenant's project mints for `guid`.
    func appAccountToken(_ guid: String, project: String? = nil) -> String {
        let response = apps.mintToken(projectId: project ?? tenant.project, guid: guid)
        return ((jsonObject(response)["data"] as? [String: Any])?["appAccountToken"] as? String) ?? ""
    }

    func post(_ store: String, token: String, body: String, headers: [(String, String)] = []) -> Response {
        post(store, token: token, bytes: Array(body.utf8), headers: headers)
    }

    func post(_ store: String, token: String, bytes: [UInt8], headers: [(String, String)] = []) -> Response {
        apps.api.respond(to: Request(method: .post, path: "/v1/m/store/\(store)/\(token)", query: [:],
                                     headers: Headers([("content-type", "application/json")] + headers), body: bytes,
                                     clientIP: "203.0.113.7", remoteAddress: "203.0.113.7"))
    }

    /// `GET /s2s/v1/users/{guid}/entitlements` as JSON.
    func entitlements(_ guid: String) -> [[String: Any]] {
        let response = apps.send(.get, "/s2s/v1/users/\(guid)/entitlements", key: tenant.key)
        return (jsonObject(response)["entitlements"] as? [[String: Any]]) ?? []
    }

    /// The events of `type` in the tenant's org, oldest first, as (stream, data text).
    func events(_ type: String, org: String? = nil) throws -> [(stream: String, data: String)] {
        let owner = try apps.tenants.ownerConnection()
        return try owner.query("""
            SELECT stream_id, data::text AS data FROM events WHERE org_id = $1::uuid AND event_type = $2
            ORDER BY org_seq
            """, [.text(org ?? tenant.org), .text(type)]).rows.map {
                (try $0.string("stream_id"), try $0.string("data"))
            }
    }
}
