import API
import Commands
import Domain
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport

/// The Meta Install Referrer decryption key (issue 20): a sealed, write-only app secret, and `POST /v1/m/install`
/// keeping the campaign it decrypts (vector of `MetaInstallReferrerTests`, made with Python's `cryptography`).
@Suite struct IngestMetaReferrerTests {
    /// A Play referrer from a Meta ad: `utm_content` is Meta's encrypted JSON, percent-encoded.
    static var metaReferrer: String {
        let content = #"{"app":1234567890,"t":1764630000,"source":{"data":"\#(MetaInstallReferrerTests.data)","#
            + #""nonce":"\#(MetaInstallReferrerTests.nonce)"}}"#
        let encoded = content.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return #","play":{"ref":"utm_source=apps.facebook.com&utm_campaign=fb4a&utm_content=\#(encoded)"}"#
    }

    /// The install's decrypted campaign, opened with the install's key (it is a journey key, sealed for it).
    private func metaReferrer(_ fixture: IngestFixture, app: String) throws -> String? {
        guard let row = try fixture.apps.tenants.ownerConnection().query("""
            SELECT meta_referrer, install_hash, org_id::text AS org FROM app_installs WHERE app_id = $1::uuid
            """, [.text(app)]).rows.first else { return nil }
        return try fixture.opened(row["meta_referrer"], .metaReferrer, org: row.string("org"),
                                  installHash: row.string("install_hash"))
    }

    private func setKey(_ fixture: IngestFixture, _ app: IngestFixture.App, _ value: String) -> Response {
        fixture.apps.send(.patch, "/s2s/v1/apps/\(app.appId)", key: app.tenant.key,
                          body: #"{"metaInstallReferrerKey":\#(value)}"#)
    }

    @Test func theKeyIsWriteOnlySealedAndAnInstallKeepsTheCampaignItDecrypts() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app(platform: "android", bundleId: IngestInstallTests.bid)
        let set = setKey(fixture, app, #""\#(MetaInstallReferrerTests.key.uppercased())""#)
        #expect(set.status == 200)
        #expect(bodyText(set).contains(#""metaInstallReferrerKey":{"set":true}"#))
        let owner = try fixture.apps.tenants.ownerConnection()
        let dump = try owner.query("""
            SELECT (SELECT string_agg(data::text, ' ') FROM events) || (SELECT string_agg(a::text, ' ') FROM apps a)
                AS text
            """).rows[0].string("text")
        #expect(!dump.lowercased().contains(MetaInstallReferrerTests.key))

        let answer = fixture.install(Array(IngestInstallTests.install(key: app.key, sources: Self.metaReferrer).utf8))
        #expect(answer.status == 200)
        #expect(bodyText(answer) == #"{"ok":true,"tier":"referrer"}"#)
        let campaign = try #require(try metaReferrer(fixture, app: app.appId))
        #expect(campaign == #"{"ad_id":"6000000000001","campaign_group_name":"Spring","campaign_id":"6000000000002","#
            + #""is_instagram":false,"publisher_platform":"facebook"}"#)
    }

    @Test func withoutTheKeyWithAnotherKeyOrWithoutAttributionConsentNothingIsDecrypted() throws {
        let fixture = try IngestFixture.migrated()
        let tenant = try fixture.apps.tenants.tenant()
        let bare = try fixture.app(platform: "android", bundleId: IngestInstallTests.bid, tenant: tenant)
        let other = try fixture.app(platform: "android", bundleId: "com.example.other", tenant: tenant)
        #expect(setKey(fixture, other, #""\#(String(repeating: "ab", count: 32))""#).status == 200)
        let denied = try fixture.app(platform: "android", bundleId: "com.example.denied", tenant: tenant)
        #expect(setKey(fixture, denied, #""\#(MetaInstallReferrerTests.key)""#).status == 200)
        let sends: [(IngestFixture.App, String, String)] = [
            (bare, IngestInstallTests.bid, "gggg"), (other, "com.example.other", "gggg"),
            (denied, "com.example.denied", "gdgg"),
        ]
        for (app, bid, cs) in sends {
            let body = IngestInstallTests.install(key: app.key, bid: bid, cs: cs, sources: Self.metaReferrer)
            #expect(fixture.install(Array(body.utf8)).status == 200)
            #expect(try metaReferrer(fixture, app: app.appId) == nil)
        }
        // Cleared with null: the app reads as without a key again.
        let cleared = setKey(fixture, denied, "null")
        #expect(cleared.status == 200 && bodyText(cleared).contains(#""metaInstallReferrerKey":null"#))
    }

    @Test func aKeyThatIsNot64HexDigitsIs400NamingTheFieldWithoutEchoingIt() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app(platform: "android", bundleId: IngestInstallTests.bid)
        for value in [#""abc""#, #""\#(String(repeating: "g", count: 64))""#, #""\#(MetaInstallReferrerTests.key)0""#,
                      "42"] {
            let response = setKey(fixture, app, value)
            #expect(response.status == 400, "\(value)")
            #expect(bodyText(response).contains("metaInstallReferrerKey"), "\(value)")
            #expect(!bodyText(response).contains("ggggggg"))
        }
        #expect(jsonObject(setKey(fixture, app, #""abc""#))["code"] as? String == "VALIDATION_SECRET_FORMAT")
    }
}
