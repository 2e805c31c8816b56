import API
import Commands
import Crypto
import Domain
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport

/// Issue 20, journey keys (docs/app-identity.md "Journey keys"): an install's `x3c`, `gclid`, AdServices token,
/// first-open deep link and Meta Install Referrer are sealed for the install in `AppInstallRecorded` (version 2) and
/// in `app_installs`; an erasure by the device or by the project's server clears them from every table (the go-link
/// click the `x3c` named included) and leaves them erased in the log, while the reads still count the installs by
/// tier and an erased install's conversions keep their money and tier without the install or session.
@Suite struct InstallJourneyErasureTests {
    static let secret = IngestEraseTests.secret
    static let userId = "user-journey-7"

    /// An Android app of a new tenant with the Meta Install Referrer key set.
    private func app(_ fixture: IngestFixture) throws -> IngestFixture.App {
        let app = try fixture.app(platform: "android", bundleId: IngestInstallTests.bid)
        let set = fixture.apps.send(.patch, "/s2s/v1/apps/\(app.appId)", key: app.tenant.key,
                                    body: #"{"metaInstallReferrerKey":"\#(MetaInstallReferrerTests.key)"}"#)
        #expect(set.status == 200)
        return app
    }

    /// A go link of `app`'s project followed once from an Android browser: the click token the referrer carries.
    private func click(_ fixture: IngestFixture, app: IngestFixture.App) throws -> String {
        let created = fixture.api.respond(to: s2sRequest(.post, "/s2s/v1/links", key: app.tenant.key, body: """
            {"fallbackUrl":"https://example.com/get","androidAppId":"\(app.appId)","utm":{"source":"mail"}}
            """))
        let token = try #require(jsonObject(created)["token"] as? String)
        let followed = fixture.api.respond(to: Request(
            method: .get, path: "/v1/go/" + token, query: [:],
            headers: Headers([("User-Agent", InstallClickTests.androidAgent)]), body: [],
            clientIP: "198.51.100.95", remoteAddress: "198.51.100.95"))
        let location = try #require(followed.headers["Location"])
        return String(try #require(location.firstMatch(of: /x3c%3D([A-Za-z0-9_-]{22})/)).1)
    }

    /// A stored batch of `inst` (session `session`) with the erase proof of `secret`, `extra` members and a
    /// `purchase` of `orderId`.
    private func batch(_ app: IngestFixture.App, inst: String, session: String = "S-1", orderId: String = "GPA.1",
                       extra: String = "") -> [UInt8] {
        var text = String(decoding: AppConversionTests.batch(key: app.key, orderId: orderId, inst: inst,
                                                             session: session), as: UTF8.self)
        text = text.replacingOccurrences(of: String(repeating: "0a", count: 32),
                                         with: IngestEraseTests.proof(Self.secret))
        if !extra.isEmpty { text = String(text.dropLast()) + extra + "}" }
        return Array(text.utf8)
    }

    private func sha(_ text: String) -> String { Hex.encode(SHA256.hash(Array(text.utf8))) }

    private func tables(_ owner: Connection) throws -> [String] {
        try owner.query("""
            SELECT table_name FROM information_schema.tables
            WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'events'
            ORDER BY table_name
            """).rows.map { try $0.string("table_name") }
    }

    /// The tables (but the log) whose rows hold `needle`.
    private func holding(_ needle: String, _ owner: Connection) throws -> Set<String> {
        var found = Set<String>()
        for table in try tables(owner) {
            for row in try owner.query("SELECT t::text AS row FROM \"\(table)\" t").rows
            where try row.string("row").contains(needle) {
                found.insert(table)
            }
        }
        return found
    }

    @Test func erasingInstallsClearsTheirJourneyKeysEverywhereAndTheReadsStillCountThemByTier() throws {
        let fixture = try IngestFixture.migrated()
        let app = try app(fixture)
        let org = app.tenant.org
        let owner = try fixture.apps.tenants.ownerConnection()
        let salt = UInt32.random(in: 0...UInt32.max)
        let token = try click(fixture, app: app)
        let gclid = "Cj0KCQ-\(salt)"
        let linkA = "https://go.example.com/r/journey-a-\(salt)"
        let linkB = "https://go.example.com/r/journey-b-\(salt)"
        let asa = "QUFB\(salt)QUFBQUFB+/=="
        let meta = #"{"app":1234567890,"t":1764630000,"source":{"data":"\#(MetaInstallReferrerTests.data)","#
            + #""nonce":"\#(MetaInstallReferrerTests.nonce)"}}"#
        let encoded = meta.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        // A: a known click, a gclid, Meta's referrer and a deep link (tier referrer), erased by the device.
        let sourcesA = #","play":{"ref":"utm_source=apps.facebook.com&utm_campaign=fb4a&gclid=\#(gclid)"#
            + #"&x3c=\#(token)&utm_content=\#(encoded)"},"link":"\#(linkA)""#
        #expect(bodyText(fixture.install(Array(IngestInstallTests.install(key: app.key, inst: "A", sources: sourcesA)
            .utf8))) == #"{"ok":true,"tier":"referrer"}"#)
        // B: an AdServices token not resolved yet and a deep link (tier pending), erased by the project's server.
        let sourcesB = #","play":{"ref":"utm_source=google-play&utm_medium=organic"},"asa":{"token":"\#(asa)"},"#
            + #""link":"\#(linkB)""#
        #expect(bodyText(fixture.install(Array(IngestInstallTests.install(key: app.key, inst: "B", sources: sourcesB)
            .utf8))) == #"{"ok":true,"tier":"pending"}"#)
        #expect(fixture.batch(batch(app, inst: "A")).status == 200)
        #expect(fixture.batch(batch(app, inst: "B", session: "S-B", orderId: "GPA.2",
                                    extra: #","id":{"s":"S-B","xid":"\#(sha(Self.userId))"}"#)).status == 200)

        let clear = [token, gclid, linkA, linkB, asa, MetaInstallReferrerTests.data, "campaign_group_name"]
        // Before: the keys are in `app_installs` only sealed, in the log only sealed, and the click row holds `x3c`.
        let stored = try owner.query("""
            SELECT install_hash, x3c, gclid, link, apple_ads_token, meta_referrer, utm_content FROM app_installs
            WHERE app_id = $1::uuid ORDER BY tier DESC
            """, [.text(app.appId)]).rows
        try #require(stored.count == 2)
        let hashA = try stored[0].string("install_hash")
        #expect(try fixture.opened(stored[0]["x3c"], .x3c, org: org, installHash: hashA) == token)
        #expect(try fixture.opened(stored[0]["gclid"], .gclid, org: org, installHash: hashA) == gclid)
        #expect(try fixture.opened(stored[0]["link"], .link, org: org, installHash: hashA) == linkA)
        #expect(try fixture.opened(stored[0]["utm_content"], .utmContent, org: org, installHash: hashA) == meta)
        #expect(try fixture.opened(stored[0]["meta_referrer"], .metaReferrer, org: org, installHash: hashA)?
            .contains("campaign_group_name") == true)
        #expect(try fixture.opened(stored[1]["apple_ads_token"], .appleAdsToken, org: org,
                                   installHash: stored[1].string("install_hash")) == asa)
        let sealed = stored.flatMap { row in
            ["x3c", "gclid", "link", "apple_ads_token", "meta_referrer", "utm_content"].compactMap { row[$0] }
        }
        #expect(sealed.count == 7 && sealed.allSatisfy { $0.hasPrefix("pd1.") })
        #expect(try holding(token, owner) == ["link_clicks"])
        let events = try owner.query("SELECT string_agg(data::text, ' ') AS t FROM events WHERE org_id = $1::uuid",
                                     [.text(org)]).rows[0].string("t")
        for needle in clear { #expect(!events.contains(needle), "\(needle)") }

        // The device erases A, the project's server B (by the user id its batch carried).
        #expect(bodyText(fixture.erase(IngestEraseTests.erase(key: app.key, inst: "A", plat: "android",
                                                              bid: IngestInstallTests.bid))) == #"{"ok":true}"#)
        let server = fixture.api.respond(to: s2sRequest(
            .post, "/v1/projects/\(app.tenant.project)/app-users/erase", key: app.tenant.key,
            body: #"{"userId":"\#(Self.userId)"}"#))
        #expect(server.status == 202 && jsonObject(server)["installs"] as? Int == 1, "\(bodyText(server))")

        // No table holds a key, in clear or sealed; the log holds none in clear, and its sealed copies read erased.
        for needle in clear + sealed { #expect(try holding(needle, owner).isEmpty, "\(needle)") }
        let after = try owner.query("""
            SELECT event_type, data::text AS data FROM events WHERE org_id = $1::uuid ORDER BY org_seq
            """, [.text(org)]).rows
        for row in after {
            for needle in clear { #expect(try !row.string("data").contains(needle), "\(needle)") }
        }
        #expect(try after.filter { try $0.string("event_type") == "AppInstallErased" }.count == 2)
        let feed = jsonObject(fixture.api.respond(to: s2sRequest(.get, "/s2s/v1/events", key: app.tenant.key)))
        let recorded = (feed["events"] as? [[String: Any]] ?? []).filter {
            $0["event_type"] as? String == "AppInstallRecorded"
        }.compactMap { ($0["data"] as? [String: Any])?["journeyKeys"] as? [String: Any] }
        #expect(recorded.count == 2)
        #expect(Set(recorded.flatMap(\.keys)) == ["x3c", "gclid", "link", "metaReferrer", "utmContent",
                                                  "appleAdsToken"])
        #expect(recorded.allSatisfy { $0.values.allSatisfy { $0 as? [String: Bool] == ["erased": true] } })

        // The rows stay with their tier and campaign fields; the reads count them.
        let rows = try owner.query("""
            SELECT tier, utm_source, utm_campaign, go_link_id IS NOT NULL AS linked FROM app_installs
            WHERE app_id = $1::uuid ORDER BY tier DESC
            """, [.text(app.appId)]).rows
        #expect(try rows.map { try "\($0.string("tier")):\($0["utm_source"] ?? "-"):\($0.bool("linked"))" }
                == ["referrer:apps.facebook.com:true", "pending:google-play:false"])
        let read = jsonObject(fixture.api.respond(to: s2sRequest(.get, "/s2s/v1/apps/\(app.appId)/installs",
                                                                 key: app.tenant.key)))
        let day = try #require((read["days"] as? [[String: Any]])?.first)
        #expect((day["tiers"] as? [String: Int])?["referrer"] == 1 && (day["tiers"] as? [String: Int])?["pending"] == 1)
        #expect(day["total"] as? Int == 2)
        // A replay rebuilds the cleared rows: the projection folds the erasure.
        let before = try owner.query("SELECT a::text AS row FROM app_installs a WHERE app_id = $1::uuid ORDER BY 1",
                                     [.text(app.appId)]).rows.map { try $0.string("row") }
        let replay = try fixture.apps.tenants.database.handoff(["replay"])
        #expect(replay.status == .exited(0), "\(replay.stderr)")
        #expect(try owner.query("SELECT a::text AS row FROM app_installs a WHERE app_id = $1::uuid ORDER BY 1",
                                [.text(app.appId)]).rows.map { try $0.string("row") } == before)
    }

    @Test func anErasedInstallsConversionsKeepTheirMoneyAndTierButNotTheInstallOrSession() throws {
        let fixture = try IngestFixture.migrated()
        let app = try app(fixture)
        let owner = try fixture.apps.tenants.ownerConnection()
        #expect(bodyText(fixture.install(Array(IngestInstallTests.install(
            key: app.key, inst: "A", sources: #","link":"https://example.com/open/spring""#).utf8)))
            == #"{"ok":true,"tier":"link"}"#)
        #expect(fixture.batch(batch(app, inst: "A", orderId: "GPA.10")).status == 200)
        #expect(fixture.batch(batch(app, inst: "A", session: "S-2", orderId: "GPA.11")).status == 200)
        #expect(pay(fixture, app, orderId: "GPA.10").status == 200)
        #expect(bodyText(fixture.erase(IngestEraseTests.erase(key: app.key, inst: "A", plat: "android",
                                                              bid: IngestInstallTests.bid))) == #"{"ok":true}"#)
        // The confirmed one and the hint still waiting: no install, no session, the tier the install had.
        let rows = try owner.query("""
            SELECT order_id, install_hash, session_id, install_tier, amount::text AS amount,
                converted_at IS NOT NULL AS converted
            FROM app_conversions WHERE org_id = $1::uuid ORDER BY order_id
            """, [.text(app.tenant.org)]).rows
        func line(_ row: Row) throws -> String {
            let order = try row.string("order_id"), converted = try row.bool("converted")
            return [order, row["install_hash"] ?? "-", row["session_id"] ?? "-", row["install_tier"] ?? "-",
                    row["amount"] ?? "-", String(converted)].joined(separator: ":")
        }
        #expect(try rows.map(line) == ["GPA.10:-:-:link:499:true", "GPA.11:-:-:link:-:false"])
        // Confirmed after the erasure: the event names no install or session, and the read counts it by that tier.
        #expect(pay(fixture, app, orderId: "GPA.11", amount: 999).status == 200)
        let confirmed = try owner.query("""
            SELECT data::text AS data FROM events WHERE org_id = $1::uuid AND event_type = 'AppConversionConfirmed'
            ORDER BY org_seq
            """, [.text(app.tenant.org)]).rows.map {
            try JSONSerialization.jsonObject(with: Data(try $0.string("data").utf8)) as? [String: Any] ?? [:]
        }
        #expect(confirmed.count == 2)
        #expect(confirmed.last?["orderId"] as? String == "GPA.11" && confirmed.last?["installHash"] == nil
                && confirmed.last?["sessionId"] == nil && confirmed.last?["amount"] as? Int == 999)
        let read = jsonObject(fixture.api.respond(to: s2sRequest(.get, "/s2s/v1/apps/\(app.appId)/conversions",
                                                                 key: app.tenant.key)))
        let day = try #require((read["days"] as? [[String: Any]])?.first)
        #expect(day["tiers"] as? [String: Int] == ["referrer": 0, "apple_ads": 0, "link": 2, "identity": 0,
                                                   "organic": 0, "unknown": 0, "pending": 0])
        #expect(day["total"] as? Int == 2 && day["amounts"] as? [String: Int] == ["EUR": 1498])
    }

    /// `POST /s2s/v1/payments` for a new buyer, confirming `orderId`.
    private func pay(_ fixture: IngestFixture, _ app: IngestFixture.App, orderId: String, amount: Int = 499)
        -> Response
    {
        let guid = jsonObject(fixture.api.respond(to: s2sRequest(
            .post, "/s2s/v1/users", key: app.tenant.key, body: #"{"externalId":"u-\#(UUID().uuidString)"}"#)))["guid"]
            as? String ?? ""
        return fixture.api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: app.tenant.key,
                                                  body: #"{"guid":"\#(guid)","paymentId":"\#(orderId)","#
            + #""amount":\#(amount),"currency":"EUR","productId":"pro.monthly","entitlement":"pro","expiresAt":null}"#))
    }
}
