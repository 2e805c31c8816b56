import API
import Domain
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport

/// Issue 21: an install whose Play referrer carries a known click token (`x3c`) is tier `referrer`, linked to the
/// click's go link; an unknown token, or another organization's or project's, names no source.
@Suite struct InstallClickTests {
    static let androidAgent = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile Safari"

    /// A go link of `app`'s project to the Android `app`, followed once from an Android browser: the link id and the
    /// click token the Play referrer carries.
    private func click(_ fixture: IngestFixture, app: IngestFixture.App) throws -> (link: String, token: String) {
        let created = fixture.api.respond(to: s2sRequest(.post, "/s2s/v1/links", key: app.tenant.key, body: """
            {"fallbackUrl":"https://example.com/get","androidAppId":"\(app.appId)","utm":{"source":"mail"}}
            """))
        #expect(created.status == 201)
        let link = try #require(jsonObject(created)["linkId"] as? String)
        let token = try #require(jsonObject(created)["token"] as? String)
        let followed = fixture.api.respond(to: Request(
            method: .get, path: "/v1/go/" + token, query: [:], headers: Headers([("User-Agent", Self.androidAgent)]),
            body: [], clientIP: "198.51.100.90", remoteAddress: "198.51.100.90"))
        #expect(followed.status == 302)
        let location = try #require(followed.headers["Location"])
        let match = try #require(location.firstMatch(of: /x3c%3D([A-Za-z0-9_-]{22})/))
        return (link, String(match.1))
    }

    private func install(_ fixture: IngestFixture, app: IngestFixture.App, inst: String, referrer: String) -> String {
        let body = IngestInstallTests.install(key: app.key, inst: inst, bid: "com.example.clicks",
                                              sources: #","play":{"ref":"\#(referrer)"}"#)
        return bodyText(fixture.install(Array(body.utf8)))
    }

    private func row(_ fixture: IngestFixture, app: IngestFixture.App) throws -> [Row] {
        try fixture.apps.tenants.ownerConnection().query("""
            SELECT tier, x3c, go_link_id::text AS go_link_id, install_hash FROM app_installs WHERE app_id = $1::uuid
            ORDER BY recorded_at
            """, [.text(app.appId)]).rows
    }

    @Test func aKnownClickTokenMakesTierReferrerLinkedToTheClicksLinkInTheRowAndTheEvent() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app(platform: "android", bundleId: "com.example.clicks")
        let clicked = try click(fixture, app: app)
        #expect(install(fixture, app: app, inst: "I-CLICK", referrer: "x3c=\(clicked.token)")
            == #"{"ok":true,"tier":"referrer"}"#)
        let rows = try row(fixture, app: app)
        #expect(rows.count == 1)
        #expect(try rows[0].string("tier") == "referrer")
        #expect(try fixture.opened(rows[0]["x3c"], .x3c, org: app.tenant.org,
                                   installHash: rows[0].string("install_hash")) == clicked.token)
        #expect(try rows[0].string("go_link_id") == clicked.link)
        let event = try fixture.apps.tenants.ownerConnection().query("""
            SELECT data->'sources'->>'goLinkId' AS link FROM events
            WHERE event_type = 'AppInstallRecorded' AND data->>'appId' = $1
            """, [.text(app.appId)]).rows
        #expect(try event.map { try $0.string("link") } == [clicked.link])
    }

    @Test func anUnknownOrForeignClickTokenNamesNoSourceAndLinksNothing() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app(platform: "android", bundleId: "com.example.clicks")
        // Another organization's click, another project's click (same org), and a well-formed unknown token.
        let foreign = try fixture.app(platform: "android", bundleId: "com.example.clicks")
        let foreignClick = try click(fixture, app: foreign)
        let created = try fixture.apps.tenants.admin(["project", "create", "--org", app.tenant.org, "--name", "B"])
            .json()
        let project = (app.tenant.org, try #require(created["projectId"] as? String),
                       try #require(created["secretKey"] as? String))
        let sibling = try fixture.app(platform: "android", bundleId: "com.example.sibling", tenant: project)
        let siblingClick = try click(fixture, app: sibling)
        let unknown = String(repeating: "A", count: 22)
        for (index, token) in [foreignClick.token, siblingClick.token, unknown, "not-a-token"].enumerated() {
            #expect(install(fixture, app: app, inst: "I-\(index)", referrer: "x3c=\(token)")
                == #"{"ok":true,"tier":"organic"}"#)
        }
        // The rest of the referrer still counts; the raw token is kept, linked to nothing.
        #expect(install(fixture, app: app, inst: "I-UTM", referrer: "utm_source=mail&x3c=\(unknown)")
            == #"{"ok":true,"tier":"referrer"}"#)
        let rows = try row(fixture, app: app)
        #expect(rows.count == 5)
        #expect(rows.allSatisfy { $0.isNull("go_link_id") && !$0.isNull("x3c") })
    }
}
