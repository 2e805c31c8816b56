import API
import Crypto
import Domain
import EventStore
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport
import Workers

/// `GET /s2s/v1/audit/heads?after=&limit=` and `GET /s2s/v1/audit/keys` (issue 16 §1): an organization's own signed
/// chain heads, paged, and the deployment's audit public keys.
@Suite struct AuditHeadsTests {
    private static let signer = ChainHeadSigner(seed: [UInt8](repeating: 9, count: 32))!

    private func get(_ api: APIResponder, _ path: String, key: String?, _ query: [String: String] = [:])
        -> Response
    {
        var request = s2sRequest(.get, path, key: key)
        request.query = query
        return api.respond(to: request)
    }

    /// Signs heads of `orgs` three times, their history moving in between (a clock a minute apart each time).
    private func signThrice(_ fixture: TenantFixture, orgs: [String]) throws {
        let pool = Pool(configuration: PostgresConfiguration(url: fixture.database.appURL, poolSize: 2))
        defer { pool.close() }
        let store = EventLog(pool: pool)
        for round in 0..<3 {
            for org in orgs {
                try store.append(org: try #require(UUID(uuidString: org)), stream: "audit-api-\(round)",
                                 expectedVersion: .any,
                                 events: [NewEvent(type: "AuditProbe", data: .object(["round": .integer(0)]))],
                                 metadata: EventMetadata(actor: .system("audit-tests")))
            }
            let now = Date(timeIntervalSince1970: 1_900_000_000 + Double(round) * 60)
            #expect(try Checkpoint(pool: pool, signer: Self.signer, interval: 60, clock: { now }).signDue()
                == orgs.count)
        }
    }

    @Test func anOrganizationPagesThroughItsOwnHeadsAndNeverAnothers() throws {
        let fixture = try TenantFixture.migrated()
        let (a, b) = (try fixture.tenant(), try fixture.tenant())
        try signThrice(fixture, orgs: [a.org, b.org])
        let api = try fixture.responder()
        let owner = try fixture.ownerConnection()
        let stored = try ChainHeadStore.page(org: try #require(UUID(uuidString: a.org)), after: 0, limit: 10,
                                             on: owner)
        #expect(stored.count == 3)

        let all = get(api, "/s2s/v1/audit/heads", key: a.key)
        #expect(all.status == 200)
        #expect(all.headers["Content-Type"] == "application/json")
        #expect(bodyText(all) == EventJSON.object([
            "heads": .array(stored.map(\.json)), "nextAfter": .integer(Int64(stored[2].orgSeq)),
        ]).canonicalText)
        let page = get(api, "/s2s/v1/audit/heads", key: a.key, ["after": String(stored[0].orgSeq), "limit": "1"])
        #expect(bodyText(page) == #"{"heads":[\#(stored[1].json.canonicalText)],"nextAfter":\#(stored[1].orgSeq)}"#)
        let end = get(api, "/s2s/v1/audit/heads", key: a.key, ["after": String(stored[2].orgSeq)])
        #expect(bodyText(end) == #"{"heads":[],"nextAfter":\#(stored[2].orgSeq)}"#)

        // B's key sees B's heads only, whatever `after` says.
        let other = jsonObject(get(api, "/s2s/v1/audit/heads", key: b.key))["heads"] as? [[String: Any]] ?? []
        #expect(other.count == 3 && other.allSatisfy { $0["org_id"] as? String == b.org })
        #expect(!bodyText(get(api, "/s2s/v1/audit/heads", key: b.key)).contains(a.org))
        // Each listed head verifies with the listed key.
        let keys = try AuditKey.keys(fromDocument: try EventJSON.parse(bodyText(get(api, "/s2s/v1/audit/keys",
                                                                                      key: b.key))))
        for head in other {
            let parsed = try ChainHead(json: try EventJSON.parse(
                String(decoding: try JSONSerialization.data(withJSONObject: head), as: UTF8.self)))
            #expect(AuditKey.verify(parsed, keys: keys) == .valid)
        }
    }

    @Test func theKeysListEveryKeyThatEverSignedOldOnesIncluded() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        try signThrice(fixture, orgs: [a.org])
        let api = try fixture.responder()
        let keys = get(api, "/s2s/v1/audit/keys", key: a.key)
        #expect(keys.status == 200)
        let first = Self.signer.key.publicKey
        #expect(bodyText(keys) == #"{"keys":[{"algorithm":"ed25519","first_used_at":"2030-03-17T17:46:40.000000Z","#
            + #""key_id":""# + Self.signer.keyId + #"","public_key":""# + Hex.encode(first.raw)
            + #"","public_key_pem":"# + EventJSON.string(first.pem).canonicalText + "}]}")

        // A rotation: a new key signs from now on; the old one stays listed, first.
        let rotated = ChainHeadSigner(seed: [UInt8](repeating: 10, count: 32))!
        let pool = Pool(configuration: PostgresConfiguration(url: fixture.database.appURL, poolSize: 1))
        defer { pool.close() }
        try EventLog(pool: pool).append(org: try #require(UUID(uuidString: a.org)), stream: "after-rotation",
                                        expectedVersion: .any, events: [NewEvent(type: "AuditProbe", data: .null)],
                                        metadata: EventMetadata(actor: .system("audit-tests")))
        let later = Date(timeIntervalSince1970: 1_900_000_600)
        #expect(try Checkpoint(pool: pool, signer: rotated, interval: 60, clock: { later }).signDue() == 1)
        let listed = jsonObject(get(api, "/s2s/v1/audit/keys", key: a.key))["keys"] as? [[String: Any]] ?? []
        #expect(listed.map { $0["key_id"] as? String } == [Self.signer.keyId, rotated.keyId])
    }

    @Test func refusalsNameTheParameterAndAKeyIsRequired() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let api = try fixture.responder()
        for (name, value) in [("after", "-1"), ("after", "x"), ("limit", "0"), ("limit", "1001"), ("after", "")] {
            let refused = get(api, "/s2s/v1/audit/heads", key: a.key, [name: value])
            #expect(refused.status == 400, "\(name)=\(value)")
            #expect(bodyText(refused) == #"{"statusCode":400,"code":"VALIDATION_FAILED","message":"query "#
                + #"parameter '\#(name)' must be an integer from \#(name == "after" ? "0" : "1") to "#
                + #"\#(name == "after" ? "999999999999" : "1000")"}"#, "\(name)=\(value)")
        }
        for path in ["/s2s/v1/audit/heads", "/s2s/v1/audit/keys"] {
            #expect(get(api, path, key: nil).status == 401)
            #expect(get(api, path, key: SecretKeyText.fresh()).status == 401)
        }
        let none = get(api, "/s2s/v1/audit/heads", key: a.key)
        #expect(bodyText(none) == #"{"heads":[],"nextAfter":0}"#)
    }
}
