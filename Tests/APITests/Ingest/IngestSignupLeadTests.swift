import API
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport

/// "Signup is lead" (issue 20): with the app's setting on, `account_created` plus an identity in a batch makes the
/// install's one lead; identify alone never does.
@Suite struct IngestSignupLeadTests {
    private static let xid = String(repeating: "ab", count: 32)

    /// A batch of `inst` whose first event is `first`, with `id` members `identity`.
    private func batch(_ key: String, inst: String, first: String = "account_created", identity: String? = nil,
                       cs: String = "gggg") -> [UInt8] {
        let extra = identity.map { #","id":{"s":"S-1",\#($0)}"# } ?? ""
        return Array(IngestBatchTests.batch(key: key, cs: cs, extra: extra)
            .replacingOccurrences(of: #""inst":"I-4F2A""#, with: #""inst":"\#(inst)""#)
            .replacingOccurrences(of: #""e":"app_open""#, with: #""e":"\#(first)""#).utf8)
    }

    private func leads(_ fixture: IngestFixture, _ app: IngestFixture.App) -> [[String: Any]] {
        let response = fixture.apps.send(.get, "/s2s/v1/apps/\(app.appId)/leads", key: app.tenant.key)
        return jsonObject(response)["leads"] as? [[String: Any]] ?? []
    }

    @Test func accountCreatedWithAnIdentityMakesTheInstallsOneLeadInEveryConsentState() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        #expect(try fixture.admin(["ingest-settings", "--app", app.appId, "--signup-is-lead", "on"]).status
                == .exited(0))
        let identity = #""xid":"\#(Self.xid)""#
        #expect(fixture.batch(batch(app.key, inst: "A", identity: identity)).status == 200)
        let shown = leads(fixture, app)
        #expect(shown.count == 1)
        let lead = try #require(shown.first)
        #expect(lead["source"] as? String == "signup" && lead["form"] as? String == "account_created")
        #expect((lead["identity"] as? [String: String]) == ["xid": Self.xid])
        #expect(lead["email"] is NSNull && lead["eventId"] as? String == "S-1:1")
        // Sent again, or a later batch of the same install with another signup: still one lead.
        #expect(fixture.batch(batch(app.key, inst: "A", identity: identity)).status == 200)
        try fixture.apps.tenants.ownerConnection().execute(
            "UPDATE app_leads SET received_at = received_at - interval '1 hour'")
        #expect(fixture.batch(batch(app.key, inst: "A", identity: #""em":"\#(Self.xid)""#)).status == 200)
        #expect(leads(fixture, app).count == 1)
        // Identify alone, and account_created without an identity, make none.
        #expect(fixture.batch(batch(app.key, inst: "B", first: "app_open", identity: identity)).status == 200)
        #expect(fixture.batch(batch(app.key, inst: "C")).status == 200)
        #expect(leads(fixture, app).count == 1)
        // Without analytics consent the batch is not stored, and the lead is still made.
        let refused = fixture.batch(batch(app.key, inst: "D", identity: identity, cs: "dggg"))
        #expect(jsonObject(refused)["stored"] as? Bool == false)
        #expect(leads(fixture, app).count == 2)
    }

    @Test func withTheSettingOffNoBatchMakesALead() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        #expect(fixture.batch(batch(app.key, inst: "A", identity: #""xid":"\#(Self.xid)""#)).status == 200)
        #expect(try fixture.admin(["ingest-settings", "--app", app.appId, "--signup-is-lead", "off"]).status
                == .exited(0))
        #expect(fixture.batch(batch(app.key, inst: "B", identity: #""xid":"\#(Self.xid)""#)).status == 200)
        #expect(leads(fixture, app).isEmpty)
        let bad = try fixture.admin(["ingest-settings", "--app", app.appId, "--signup-is-lead", "maybe"])
        #expect(bad.status == .exited(2) && bad.stderr.contains("--signup-is-lead"))
    }
}
