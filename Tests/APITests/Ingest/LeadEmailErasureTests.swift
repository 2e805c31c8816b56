import API
import Domain
import Foundation
import HTTPServer
import Testing
import TestSupport

/// An erasure by address (`POST /s2s/v1/erasures {"email"}`, issue 16 §5) reaches the app leads that carry it: the
/// personal-data key of each install that sent the address is destroyed, so the lead's contact reads as erased, and
/// the leads of other addresses stay readable.
@Suite struct LeadEmailErasureTests {
    private func lead(_ fixture: IngestFixture, key: String, inst: String, email: String, eventId: String) -> Int {
        let body = IngestLeadTests.lead(key: key, inst: inst, email: email, eventId: eventId)
        let ip = "198.51.100.\(inst.count + 100)"
        return fixture.api.respond(to: Request(
            method: .post, path: "/v1/m/lead", query: [:], headers: Headers([("Content-Type", "application/json")]),
            body: Array(body.utf8), clientIP: ip, remoteAddress: ip)).status
    }

    private func contacts(_ fixture: IngestFixture, app: (appId: String, key: String)) -> [String] {
        let answer = fixture.api.respond(to: s2sRequest(.get, "/s2s/v1/apps/\(app.appId)/leads", key: app.key))
        let leads = jsonObject(answer)["leads"] as? [[String: Any]] ?? []
        return leads.map { lead in
            if let email = lead["email"] as? String { return email }
            return (lead["email"] as? [String: Bool]) == ["erased": true] ? "erased" : "?"
        }.sorted()
    }

    @Test func erasingAnAddressErasesTheContactOfTheLeadsThatCarryItAndNoOthers() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        #expect(try fixture.admin(["ingest-settings", "--app", app.appId, "--leads", "on"]).status == .exited(0))
        #expect(lead(fixture, key: app.key, inst: "I-ADA", email: "ada@example.com", eventId: "E-1") == 202)
        #expect(lead(fixture, key: app.key, inst: "I-GRACE", email: "grace@example.com", eventId: "E-2") == 202)
        let reader = (appId: app.appId, key: app.tenant.key)
        #expect(contacts(fixture, app: reader) == ["ada@example.com", "grace@example.com"])
        let erased = fixture.api.respond(to: s2sRequest(.post, "/s2s/v1/erasures", key: app.tenant.key,
                                                        body: #"{"email":"ada@example.com"}"#))
        #expect(erased.status == 202, "\(bodyText(erased))")
        #expect(contacts(fixture, app: reader) == ["erased", "grace@example.com"])
        let owner = try fixture.apps.tenants.ownerConnection()
        let hashes = try owner.query("SELECT count(*) AS n FROM app_leads WHERE email_hash IS NOT NULL").rows
        #expect(hashes.first?["n"] == "1")
    }
}
