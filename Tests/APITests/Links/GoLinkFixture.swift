import API
import Commands
import Domain
import Foundation
import HTTPServer
import Postgres
import TestSupport

/// Go links over the API edge (no socket) on a fresh database, with a clock the test sets.
struct GoLinkFixture {
    let tenants: TenantFixture
    let api: APIResponder
    let clock: SettableClock

    static let base = "https://handoff.example.com"
    static let start = Date(timeIntervalSince1970: 1_900_000_000)
    static let androidAgent = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile Safari"
    static let iPhoneAgent = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile"
    static let desktopAgent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120 Safari/537.36"

    static func migrated(goLinkLimit: RateLimit = TestIdentity.uniqueLimit(count: 1000),
                         identity: IdentitySecrets? = TestIdentity.secrets()) throws -> GoLinkFixture {
        let tenants = try TenantFixture.migrated()
        let clock = SettableClock(start)
        let api = try tenants.responder(identity: identity, clock: { clock.now() }, poolSize: 8, publicBaseURL: base,
                                        goLinkLimit: goLinkLimit)
        return GoLinkFixture(tenants: tenants, api: api, clock: clock)
    }

    func tenant() throws -> (org: String, project: String, key: String) { try tenants.tenant() }

    func send(_ method: HTTPServer.Method, _ path: String, key: String, body: String = "") -> Response {
        api.respond(to: s2sRequest(method, path, key: key, body: body))
    }

    /// Creates an app through `POST /s2s/v1/apps`; its id (fails unless 201).
    func app(key: String, _ body: String) throws -> String {
        let response = send(.post, "/s2s/v1/apps", key: key, body: body)
        guard response.status == 201, let id = jsonObject(response)["appId"] as? String else {
            throw AdminFailed(outcome: "\(response.status) \(bodyText(response))")
        }
        return id
    }

    /// Creates a link (`body` is the JSON body); its JSON (fails unless 201).
    func link(key: String, _ body: String) throws -> [String: Any] {
        let response = send(.post, "/s2s/v1/links", key: key, body: body)
        guard response.status == 201 else { throw AdminFailed(outcome: "\(response.status) \(bodyText(response))") }
        return jsonObject(response)
    }

    /// `GET /v1/go/<ref>` from a browser with `userAgent`.
    func follow(_ ref: String, userAgent: String?, query: [String: String] = [:],
                clientIP: String = "198.51.100.70") -> Response {
        api.respond(to: Request(method: .get, path: "/v1/go/" + ref, query: query,
                                headers: Headers(userAgent.map { [("User-Agent", $0)] } ?? []), body: [],
                                clientIP: clientIP, remoteAddress: clientIP))
    }

    func owner() throws -> Connection { try tenants.ownerConnection() }

    /// The clicks of `org` (as the owner, past row-level security), oldest first.
    func clicks(org: String) throws -> [Row] {
        try owner().query("""
            SELECT click_token, platform, visitor_hash, web_session_id, test::text AS test FROM link_clicks
            WHERE org_id = $1::uuid ORDER BY clicked_at, click_token
            """, [.text(org)]).rows
    }
}
