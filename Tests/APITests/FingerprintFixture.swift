@testable import API
import Commands
import Domain
import EventStore
import Foundation
import HTTPServer
import Postgres
import Redis
import Telemetry
import TestSupport

/// A migrated database, a tenant with fingerprinting on, the API edge with a movable clock, and helpers that pay,
/// send a fingerprint the way the page's script does, and resolve the way an app does.
struct FingerprintFixture {
    static let iPhone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148"
    static let android = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36"
    static let bundle = "com.example.app"
    /// A second buyer, next to `PaymentTests.guidA`.
    static let guidB = "1f8fad5b-d9cb-469f-a165-70867728950e"

    let fixture: TenantFixture
    let clock = Clock()
    let api: APIResponder
    let tenant: (org: String, project: String, key: String)

    /// `settings` are `handoff admin project create` flags; the default turns fingerprinting on.
    init(settings: [String] = ["--fingerprint", "on", "--return-scheme", "myapp", "--android-package", bundle,
                               "--ios-bundle-id", bundle],
         redisURL: String? = nil, resolveLimit: RateLimit = TestIdentity.uniqueLimit(count: 1000),
         identity: IdentitySecrets? = TestIdentity.secrets(), poolSize: Int = 2) throws {
        fixture = try TenantFixture.migrated()
        tenant = try fixture.tenant(settings)
        api = try Self.responder(fixture, clock: clock, redisURL: redisURL, resolveLimit: resolveLimit,
                                 identity: identity, poolSize: poolSize)
    }

    /// The edge as `serve` builds it, with a limit of its own for each fingerprint route.
    static func responder(_ fixture: TenantFixture, clock: Clock, redisURL: String? = nil,
                          resolveLimit: RateLimit = TestIdentity.uniqueLimit(count: 1000),
                          identity: IdentitySecrets? = TestIdentity.secrets(), poolSize: Int = 2) throws
        -> APIResponder
    {
        let environment = Environment(
            model: WriteModel(
                pool: Pool(configuration: PostgresConfiguration(url: fixture.database.appURL, poolSize: poolSize)),
                secrets: identity),
            redis: RedisPool(configuration: try RedisConfiguration(
                url: try redisURL ?? TestEnvironment.redisURL(), poolSize: 2, connectTimeout: 0.3,
                commandTimeout: 0.3)),
            metrics: Metrics(), logger: Logger(level: .error, descriptor: open("/dev/null", O_WRONLY)),
            authFailureLimit: TestIdentity.uniqueLimit(count: 20),
            clock: { clock.now() }, publicBaseURL: "https://handoff.example.com",
            fingerprintCaptureLimit: TestIdentity.uniqueLimit(count: 1000), resolveByFingerprintLimit: resolveLimit)
        return APIResponder(environment: environment)
    }

    /// Records payment `paymentId` for `guid` with `key` (default: this tenant's); answers (code, page token).
    func pay(guid: String = PaymentTests.guidA, paymentId: String = "pi_1", key: String? = nil) throws
        -> (code: String, token: String)
    {
        let response = api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: key ?? tenant.key,
                                                  body: PaymentTests.body(guid: guid, paymentId: paymentId)))
        guard response.status == 200 else { throw AdminFailed(outcome: bodyText(response)) }
        let handoff = jsonObject(response)["handoff"] as? [String: Any]
        let url = handoff?["postPaymentUrl"] as? String ?? ""
        return (handoff?["code"] as? String ?? "", String(url.dropFirst("https://handoff.example.com/done/".count)))
    }

    /// `POST /public/handoff/fingerprint` as the page's script sends it.
    func capture(_ token: String, screen: String = "393x852", timezone: String? = "Europe/Berlin",
                 language: String? = "ru-RU", ip: String = "203.0.113.20", userAgent: String = iPhone,
                 body: String? = nil) -> Response {
        var fields = [#""token":"\#(token)""#, #""screen":"\#(screen)""#]
        if let timezone { fields.append(#""timezone":"\#(timezone)""#) }
        if let language { fields.append(#""language":"\#(language)""#) }
        return api.respond(to: Request(
            method: .post, path: "/public/handoff/fingerprint",
            headers: Headers([("User-Agent", userAgent), ("Content-Type", "application/json")]),
            body: Array((body ?? "{" + fields.joined(separator: ",") + "}").utf8), clientIP: ip, remoteAddress: ip))
    }

    /// `POST /public/handoff/resolve-by-fingerprint` with `body` (see `probe`) from `ip`.
    func resolve(_ body: String, ip: String = "203.0.113.20") -> Response {
        api.respond(to: Request(method: .post, path: "/public/handoff/resolve-by-fingerprint",
                                headers: Headers([("Content-Type", "application/json")]), body: Array(body.utf8),
                                clientIP: ip, remoteAddress: ip))
    }

    /// A resolve body for this tenant's project; nil leaves a field out.
    func probe(projectId: String? = nil, platform: String? = "ios", osVersion: String? = "17.4.1",
               screen: String? = "852x393", timezone: String? = "Europe/Berlin", language: String? = nil,
               bundleId: String? = nil) -> String {
        let pairs: [(String, String?)] = [
            ("projectId", projectId ?? tenant.project), ("platform", platform), ("osVersion", osVersion),
            ("screen", screen), ("timezone", timezone), ("language", language), ("bundleId", bundleId),
        ]
        return "{" + pairs.compactMap { key, value in value.map { #""\#(key)":"\#($0)""# } }
            .joined(separator: ",") + "}"
    }

    /// How many events of `type` this tenant's org has.
    func count(_ type: String) throws -> Int {
        try fixture.ownerConnection().query(
            "SELECT count(*) AS n FROM events WHERE org_id = $1::uuid AND event_type = $2",
            [.text(tenant.org), .text(type)]).rows[0].int("n")
    }

    /// The rows of `fingerprints` of this tenant's org.
    func rows() throws -> [Row] {
        try fixture.ownerConnection().query(
            "SELECT payment_id, platform, screen, timezone, language, ip_hash FROM fingerprints "
                + "WHERE org_id = $1::uuid ORDER BY payment_id", [.text(tenant.org)]).rows
    }

    /// The success body of resolve-by-fingerprint.
    static func found(_ guid: String, _ method: String) -> String {
        #"{"success":true,"data":{"guid":"\#(guid)","matchMethod":"\#(method)"}}"#
    }

    static let notFound = #"{"statusCode":404,"message":"no fingerprint matches"}"#
}
