import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Records a followed go link (`GET /v1/go/{ref}`): a `link_clicks` row with a fresh click token (`x3c`), the
/// platform the visitor is sent to, the browser's daily visitor hash and the web session it was matched to
/// (`VisitorMatch`); answers where to redirect (`ClickDestination`). Not an event of the log (docs/app-links.md).
public struct RecordLinkClick: Sendable {
    /// What a followed link came to.
    public struct Outcome: Sendable, Equatable {
        public var location: String
        public var platform: ClickDestination.Platform
        public var clickToken: String
        public var webSessionId: String?
    }

    /// The visitor as the request shows them; only the keyed hash of these is kept.
    public struct Visitor: Sendable {
        public var clientKey: String
        public var userAgent: String?
        /// `?s=`, the web session the link says it came from.
        public var webSession: String?
        /// `?x3_test=1`.
        public var test: Bool

        public init(clientKey: String, userAgent: String?, webSession: String?, test: Bool) {
            self.clientKey = clientKey
            self.userAgent = userAgent
            self.webSession = webSession
            self.test = test
        }
    }

    private let log: EventLog

    init(log: EventLog) { self.log = log }

    /// Records a click of the link whose global token is `ref` at `now` — or, with `proxyOrg` (the org of a valid
    /// proxy key), the link of that org whose code or token is `ref`; nil, and nothing recorded, when no link
    /// matches. `pepper` keys the visitor hash (the lookup pepper).
    public func run(ref: String, proxyOrg: OrgID? = nil, visitor: Visitor, now: Date, pepper: [UInt8]) throws
        -> Outcome?
    {
        let scope: OrgScope
        let condition: String
        if let proxyOrg {
            guard (1...64).contains(ref.utf8.count) else { return nil }
            scope = .org(proxyOrg.uuid)
            condition = "(l.code = $1 OR l.token = $1)"
        } else {
            guard LinkToken.parse(ref) != nil else { return nil }
            scope = .orgOf(.goLink, .text(ref))
            condition = "l.token = $1"
        }
        let click = LinkToken(randomBytes: SecureRandom.bytes(LinkToken.randomByteCount))
        let hash = Self.visitorHash(visitor, now: now, pepper: pepper)
        return try log.transact(in: scope) { transaction in
            let connection = transaction.connection
            guard let row = try connection.queryPrepared("""
                SELECT l.org_id::text AS org_id, l.project_id::text AS project_id, l.link_id::text AS link_id,
                    l.fallback_url, l.utm::text AS utm, l.app_store_pt, l.app_store_ct,
                    ia.app_apple_id::text AS app_apple_id, aa.bundle_id AS android_package
                FROM go_links l
                    LEFT JOIN apps ia ON ia.app_id = l.ios_app_id AND ia.org_id = l.org_id
                    LEFT JOIN apps aa ON aa.app_id = l.android_app_id AND aa.org_id = l.org_id
                WHERE \(condition) ORDER BY l.code = $1 DESC NULLS LAST LIMIT 1
                """, [.text(ref)]).rows.first else { return nil }
            let utm = try JSONDecoder().decode(LinkUTM.self, from: Data(try row.string("utm").utf8))
            let target = ClickDestination.Target(
                androidPackage: row["android_package"], appleAppId: row["app_apple_id"].flatMap { Int64($0) },
                fallbackUrl: try row.string("fallback_url"), utm: utm, providerToken: row["app_store_pt"],
                campaignToken: row["app_store_ct"])
            let decided = ClickDestination.decide(target, userAgent: visitor.userAgent, clickToken: click)
            let org = try row.string("org_id"), project = try row.string("project_id")
            let earlier = try connection.queryPrepared("""
                SELECT extract(epoch FROM clicked_at)::float8::text AS at, web_session_id FROM link_clicks
                WHERE org_id = $1::uuid AND project_id = $2::uuid AND visitor_hash = $3
                  AND clicked_at >= $4::timestamptz - interval '30 minutes'
                ORDER BY clicked_at DESC LIMIT 20
                """, [.text(org), .text(project), .text(hash), .text(RFC3339.format(now))]).rows.map {
                VisitorMatch.Sighting(at: Date(timeIntervalSince1970: Double(try $0.string("at")) ?? 0),
                                      webSessionId: $0["web_session_id"])
            }
            let session = VisitorMatch.session(given: visitor.webSession, earlier: earlier, now: now)
            try connection.queryPrepared("""
                INSERT INTO link_clicks (click_token, org_id, project_id, link_id, platform, visitor_hash,
                    web_session_id, test, clicked_at)
                VALUES ($1, $2::uuid, $3::uuid, $4::uuid, $5, $6, $7, $8::boolean, $9::timestamptz)
                """, [.text(click.text), .text(org), .text(project), .text(try row.string("link_id")),
                      .text(decided.platform.rawValue), .text(hash), .optional(session),
                      .text(visitor.test ? "true" : "false"), .text(RFC3339.format(now))])
            return Outcome(location: decided.location, platform: decided.platform, clickToken: click.text,
                           webSessionId: session)
        }
    }

    /// HMAC-SHA256(pepper, `go-visitor:<day>:<client key>:<user agent>`) in hex: the same browser on the same UTC day
    /// gets the same hash; the IP and user agent themselves are never stored.
    static func visitorHash(_ visitor: Visitor, now: Date, pepper: [UInt8]) -> String {
        let day = String(RFC3339.format(now).prefix(10))
        let message = "go-visitor:\(day):\(visitor.clientKey):\(visitor.userAgent ?? "")"
        return Hex.encode(HMAC.sha256(key: pepper, message: Array(message.utf8)))
    }
}
