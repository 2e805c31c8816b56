import API
import Commands
import Domain
import Foundation
import HTTPServer
import Postgres
import TestSupport

/// Affiliate programs over the API edge (no socket) on a fresh database, with a clock the test sets.
struct AffiliateFixture {
    let tenants: TenantFixture
    let api: APIResponder
    let clock: SettableClock

    static let base = "https://handoff.example.com"
    static let start = Date(timeIntervalSince1970: 1_900_000_000)
    static let percent = #"{"type":"percent","basisPoints":1500}"#

    /// `affiliateLinkLimit`/`bindLimit` default to generous budgets of their own (the limit tests pass theirs).
    static func migrated(affiliateLinkLimit: RateLimit = TestIdentity.uniqueLimit(count: 1000),
                         bindLimit: RateLimit = TestIdentity.uniqueLimit(count: 1000),
                         identity: IdentitySecrets? = TestIdentity.secrets(), redisURL: String? = nil)
        throws -> AffiliateFixture
    {
        let tenants = try TenantFixture.migrated()
        let clock = SettableClock(start)
        let api = try tenants.responder(redisURL: redisURL, identity: identity, clock: { clock.now() }, poolSize: 8,
                                        publicBaseURL: base, affiliateLinkLimit: affiliateLinkLimit,
                                        bindLimit: bindLimit)
        return AffiliateFixture(tenants: tenants, api: api, clock: clock)
    }

    /// A new org and project with a paywall URL (and `extra` project flags).
    func tenant(_ extra: [String] = ["--paywall-url", "https://pay.example.com/checkout?plan=pro"]) throws
        -> (org: String, project: String, key: String)
    {
        try tenants.tenant(extra)
    }

    func send(_ method: HTTPServer.Method, _ path: String, key: String, body: String = "") -> Response {
        api.respond(to: s2sRequest(method, path, key: key, body: body))
    }

    /// Creates a campaign (`body` is the JSON body); its id (fails unless 201).
    func campaign(key: String, _ body: String? = nil) throws -> String {
        let response = send(.post, "/s2s/v1/campaigns", key: key,
                            body: body ?? #"{"name":"Launch","commission":\#(Self.percent)}"#)
        guard response.status == 201, let id = jsonObject(response)["campaignId"] as? String else {
            throw AdminFailed(outcome: "\(response.status) \(bodyText(response))")
        }
        return id
    }

    /// Creates an affiliate under `campaign`; its JSON (fails unless 201).
    func affiliate(key: String, campaign: String, refCode: String? = nil, name: String = "Jane")
        throws -> [String: Any]
    {
        let code = refCode.map { #","refCode":"\#($0)""# } ?? ""
        let response = send(.post, "/s2s/v1/affiliates", key: key,
                            body: #"{"name":"\#(name)","campaignId":"\#(campaign)"\#(code)}"#)
        guard response.status == 201 else { throw AdminFailed(outcome: "\(response.status) \(bodyText(response))") }
        return jsonObject(response)
    }

    /// `GET /a/<code>` (with `?p=` when `project` is given).
    func follow(_ code: String, project: String? = nil, clientIP: String = "198.51.100.70") -> Response {
        api.respond(to: Request(method: .get, path: "/a/" + code, query: project.map { ["p": $0] } ?? [:],
                                headers: Headers([("User-Agent", "Mozilla/5.0 (iPhone)")]), body: [],
                                clientIP: clientIP, remoteAddress: clientIP))
    }

    /// The `click` parameter of a redirect's `Location`.
    static func clickID(_ response: Response) -> String? {
        response.headers["Location"].flatMap { URLComponents(string: $0) }?.queryItems?
            .first { $0.name == "click" }?.value
    }

    /// `POST /v1/app-store/bind` with `body` as given.
    func bind(_ body: String, clientIP: String = "198.51.100.80") -> Response {
        api.respond(to: Request(method: .post, path: "/v1/app-store/bind", query: [:], headers: Headers([]),
                                body: Array(body.utf8), clientIP: clientIP, remoteAddress: clientIP))
    }

    /// A bind body from its fields (nil ones left out).
    static func bindBody(project: String, click: String? = nil, code: String? = nil, guid: String? = nil) -> String {
        var fields = [#""projectId":"\#(project)""#]
        if let click { fields.append(#""signedClickId":"\#(click)""#) }
        if let code { fields.append(#""refCode":"\#(code)""#) }
        if let guid { fields.append(#""guid":"\#(guid)""#) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// The `data` of a bind answer.
    static func data(_ response: Response) -> [String: Any] { jsonObject(response)["data"] as? [String: Any] ?? [:] }

    func owner() throws -> Connection { try tenants.ownerConnection() }

    /// `count(*)` of `table` rows of `org` (as the owner, past row-level security).
    func count(_ table: String, org: String) throws -> Int {
        try owner().query("SELECT count(*) AS n FROM \(table) WHERE org_id = $1::uuid", [.text(org)]).rows[0].int("n")
    }

    /// `count(*)` of events of `type` in `org`.
    func events(_ type: String, org: String) throws -> Int {
        try owner().query("SELECT count(*) AS n FROM events WHERE org_id = $1::uuid AND event_type = $2",
                          [.text(org), .text(type)]).rows[0].int("n")
    }
}
