import API
import Domain
import EventStore
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport

/// `GET /s2s/v1/events?after=&limit=` (issue 4, "Lookups"): the org's history with hashes, personal data opened.
@Suite struct EventsTests {
    private func events(_ api: APIResponder, key: String, _ query: String = "") -> Response {
        var request = s2sRequest(.get, "/s2s/v1/events", key: key)
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            request.query[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return api.respond(to: request)
    }

    private func list(_ response: Response) -> [[String: Any]] {
        jsonObject(response)["events"] as? [[String: Any]] ?? []
    }

    @Test func theHistoryCarriesHashesAndOpensPersonalDataUntilErased() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let b = try fixture.tenant()
        let api = try fixture.responder(clock: { PaymentTests.now })
        #expect(api.respond(to: s2sRequest(.post, "/s2s/v1/users", key: a.key,
                                           body: #"{"externalId":"u1","email":"ana@example.com"}"#)).status == 200)
        let paid = api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: a.key, body: PaymentTests.body()))
        let code = try #require((jsonObject(paid)["handoff"] as? [String: Any])?["code"] as? String)
        let token = try #require((jsonObject(paid)["install"] as? [String: Any])?["token"] as? String)

        let all = events(api, key: a.key)
        #expect(all.status == 200)
        let shown = list(all)
        let owner = try fixture.ownerConnection()
        let stored = try owner.query("""
            SELECT org_seq, encode(hash, 'hex') AS hash, encode(prev_hash, 'hex') AS prev FROM events
            WHERE org_id = $1::uuid ORDER BY org_seq
            """, [.text(a.org)]).rows
        #expect(shown.count == stored.count && shown.count >= 5)
        #expect(jsonObject(all)["nextAfter"] as? Int == stored.count)
        for (event, row) in zip(shown, stored) {
            #expect(event["org_seq"] as? Int == (try row.int("org_seq")))
            #expect(event["hash"] as? String == (try row.string("hash")))
            #expect(event["prev_hash"] as? String == (try row.string("prev")))
            #expect(event["org_id"] as? String == a.org)
            // Deployment-wide positions would show other tenants' traffic volume.
            #expect(event["global_pos"] == nil && event["tx_id"] == nil)
        }
        let created = try #require(shown.first { $0["event_type"] as? String == "BuyerCreated" })
        #expect((created["data"] as? [String: Any])?["email"] as? String == "ana@example.com")
        let codes = shown.filter { $0["event_type"] as? String == "HandoffCodeMinted" }
            .compactMap { ($0["data"] as? [String: Any])?["sealedCode"] as? [String: Bool] }
        #expect(codes == [["redacted": true], ["redacted": true]])
        #expect(!bodyText(all).contains(code) && !bodyText(all).contains(token))
        #expect(!bodyText(all).contains("pd1."))

        // Pages: after/limit, nextAfter.
        let page = events(api, key: a.key, "after=1&limit=2")
        #expect(list(page).map { $0["org_seq"] as? Int } == [2, 3])
        #expect(jsonObject(page)["nextAfter"] as? Int == 3)
        let end = events(api, key: a.key, "after=\(stored.count)")
        #expect(bodyText(end) == #"{"events":[],"nextAfter":\#(stored.count)}"#)

        // Org B's key sees only org B's history.
        let other = list(events(api, key: b.key))
        #expect(!other.isEmpty && other.allSatisfy { $0["org_id"] as? String == b.org })

        // Erased: the buyer's key destroyed, its personal data shows as {"erased":true}; hashes unchanged.
        let guid = try #require((created["data"] as? [String: Any])?["guid"] as? String)
        try SubjectKeys(masterKey: TestIdentity.secrets().masterKey)
            .destroy(org: try #require(UUID(uuidString: a.org)), subject: guid, on: owner)
        let after = list(events(api, key: a.key))
        let erased = try #require(after.first { $0["event_type"] as? String == "BuyerCreated" })
        #expect((erased["data"] as? [String: Any])?["email"] as? [String: Bool] == ["erased": true])
        #expect(after.map { $0["hash"] as? String } == shown.map { $0["hash"] as? String })
    }

    @Test func afterAndLimitAreCheckedByName() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let api = try fixture.responder()
        #expect(list(events(api, key: a.key, "limit=1000")).count >= 1)
        #expect(list(events(api, key: a.key, "limit=1")).count == 1)
        let over = events(api, key: a.key, "limit=1001")
        #expect(over.status == 400)
        #expect(bodyText(over) == #"{"statusCode":400,"code":"VALIDATION_FAILED","# +
            #""message":"query parameter 'limit' must be an integer from 1 to 1000"}"#)
        for query in ["limit=0", "limit=abc", "limit=", "limit=-1"] {
            let refused = events(api, key: a.key, query)
            #expect(refused.status == 400 && (jsonObject(refused)["message"] as? String)?.contains("'limit'") == true,
                    "\(query)")
        }
        for query in ["after=-1", "after=x", "after=1.5"] {
            let refused = events(api, key: a.key, query)
            #expect(refused.status == 400 && (jsonObject(refused)["message"] as? String)?.contains("'after'") == true,
                    "\(query)")
        }
        #expect(events(api, key: SecretKeyText.fresh()).status == 401)
        #expect(api.respond(to: s2sRequest(.get, "/s2s/v1/events", key: nil)).status == 401)
    }
}
