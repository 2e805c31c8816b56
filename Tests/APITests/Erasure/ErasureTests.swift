@testable import API
import Commands
import Domain
import EventStore
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport

/// `POST /s2s/v1/users/{guid}/erasure`, `POST /s2s/v1/erasures` and `handoff admin buyer erase` (issue 16 §5):
/// idempotency, tenant isolation, refusals, the application role's limits, replay.
@Suite struct ErasureTests {
    private static let identityEnvironment: [String: String] = {
        func text(_ bytes: [UInt8]) -> String {
            Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let secrets = TestIdentity.secrets()
        return ["HANDOFF_MASTER_KEY": text(secrets.masterKey), "HANDOFF_LOOKUP_PEPPER": text(secrets.lookupPepper),
                "HANDOFF_PASS_KEYS": "old1:" + text(TestIdentity.oldPassKey)]
    }()

    private func buyer(_ api: APIResponder, key: String, email: String) throws -> String {
        let user = api.respond(to: s2sRequest(.post, "/s2s/v1/users", key: key, body: #"{"email":"\#(email)"}"#))
        return try #require(jsonObject(user)["guid"] as? String)
    }

    private func count(_ owner: Connection, _ sql: String, _ parameters: [PostgresValue]) throws -> Int {
        try owner.query("SELECT count(*) AS n FROM " + sql, parameters).rows[0].int("n")
    }

    @Test func aRepeatedErasureAnswersTheFirstIdAndRecordsNothingAlsoFromTheCLI() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let api = try fixture.responder(clock: { PaymentTests.now })
        let guid = try buyer(api, key: a.key, email: "again@example.com")
        let first = api.respond(to: s2sRequest(.post, "/s2s/v1/users/\(guid)/erasure", key: a.key, body: "{}"))
        #expect(first.status == 202)
        let id = try #require(jsonObject(first)["erasureId"] as? String)
        let repeated = api.respond(to: s2sRequest(.post, "/s2s/v1/users/\(guid)/erasure", key: a.key))
        #expect(repeated.status == 202 && bodyText(repeated) == bodyText(first))
        let cli = try fixture.admin(["buyer", "erase", "--org", a.org, "--guid", guid],
                                    environment: Self.identityEnvironment)
        #expect(cli.status == .exited(0), "\(cli.stderr)")
        #expect(cli.stdout == #"{"erasureId":"\#(id)","guid":"\#(guid)"}"# + "\n")
        let owner = try fixture.ownerConnection()
        #expect(try count(owner, "events WHERE org_id = $1::uuid AND event_type = 'BuyerErased'", [.text(a.org)]) == 1)
        // The buyer stays (payments and entitlements are finance records); nothing new is sealed for it.
        #expect(api.respond(to: s2sRequest(.get, "/s2s/v1/users/\(guid)", key: a.key)).status == 200)
        let paid = api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: a.key,
                                              body: PaymentTests.body(guid: guid)))
        #expect(paid.status == 409 && (jsonObject(paid)["message"] as? String)?.contains("erased") == true)
        // A new buyer may give the address again: it finds no erased buyer.
        #expect(try buyer(api, key: a.key, email: "again@example.com") != guid)
    }

    @Test func anotherOrganizationsGuidIsNotFoundAndNothingOfItIsErased() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let b = try fixture.tenant()
        let api = try fixture.responder(clock: { PaymentTests.now })
        let guid = try buyer(api, key: a.key, email: "mine@example.com")
        let foreign = api.respond(to: s2sRequest(.post, "/s2s/v1/users/\(guid)/erasure", key: b.key))
        #expect(foreign.status == 404)
        #expect(bodyText(foreign) == #"{"statusCode":404,"code":"NOT_FOUND","message":"no buyer with this guid"}"#)
        let byEmail = api.respond(to: s2sRequest(.post, "/s2s/v1/erasures", key: b.key,
                                                 body: #"{"email":"mine@example.com"}"#))
        #expect(byEmail.status == 202 && jsonObject(byEmail)["guids"] as? [String] == [])
        let cli = try fixture.admin(["buyer", "erase", "--org", b.org, "--guid", guid],
                                    environment: Self.identityEnvironment)
        #expect(cli.status == .exited(1) && cli.stderr.contains("no buyer with this guid"))
        let owner = try fixture.ownerConnection()
        #expect(try count(owner, "buyer_emails WHERE guid = $1", [.text(guid)]) == 1)
        #expect(try count(owner, "subject_keys WHERE subject_id = $1 AND wrapped_key IS NOT NULL", [.text(guid)]) == 1)
        #expect(try count(owner, "events WHERE event_type = 'BuyerErased'", []) == 0)
    }

    @Test func refusalsNameTheField() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let api = try fixture.responder()
        func post(_ path: String, _ body: String = "", key: String? = nil) -> Response {
            api.respond(to: s2sRequest(.post, path, key: key ?? a.key, body: body))
        }
        #expect(bodyText(post("/s2s/v1/users/00000000-0000-0000-0000-000000000000/erasure")).contains(
            #""code":"VALIDATION_GUID_FORMAT""#))
        #expect(post("/s2s/v1/users/a%20b/erasure").status == 400)
        let unknown = post("/s2s/v1/users/never-seen/erasure")
        #expect(unknown.status == 404 && jsonObject(unknown)["code"] as? String == "NOT_FOUND")
        // The server answers 413 over the route's limit before the handler runs.
        #expect(api.bodyLimit(for: .post, path: "/s2s/v1/users/never-seen/erasure") == 1024)
        #expect(post("/s2s/v1/users/never-seen/erasure", key: SecretKeyText.fresh()).status == 401)

        let missing = post("/s2s/v1/erasures", "{}")
        #expect(missing.status == 400 && (jsonObject(missing)["message"] as? String)?.contains("'email'") == true,
                "\(bodyText(missing))")
        let malformed = post("/s2s/v1/erasures", #"{"email":"not-an-address"}"#)
        #expect(malformed.status == 400 && jsonObject(malformed)["code"] as? String == "VALIDATION_EMAIL_FORMAT")
        let extra = post("/s2s/v1/erasures", #"{"email":"a@example.com","guid":"x"}"#)
        #expect(extra.status == 400 && (jsonObject(extra)["message"] as? String)?.contains("'guid'") == true)
        #expect(post("/s2s/v1/erasures", #"{"email":null}"#).status == 400)
        #expect(post("/s2s/v1/erasures", "[").status == 400)
        #expect(api.bodyLimit(for: .post, path: "/s2s/v1/erasures") == 4096)
        #expect(post("/s2s/v1/erasures", #"{"email":"a@example.com"}"#, key: SecretKeyText.fresh()).status == 401)

        let noFlag = try fixture.admin(["buyer", "erase", "--org", a.org], environment: Self.identityEnvironment)
        #expect(noFlag.status == .exited(2) && noFlag.stderr.contains("'--guid' and '--email'"))
        let badGuid = try fixture.admin(["buyer", "erase", "--org", a.org, "--guid", "a b"],
                                        environment: Self.identityEnvironment)
        #expect(badGuid.status == .exited(2) && badGuid.stderr.contains("--guid"))
        let noSecrets = try fixture.admin(["buyer", "erase", "--org", a.org, "--guid", "x"],
                                          environment: ["HANDOFF_MASTER_KEY": ""])
        #expect(noSecrets.status == .exited(2) && noSecrets.stderr.contains("HANDOFF_MASTER_KEY"))
    }

    @Test func anErasureByAddressErasesEveryBuyerHoldingItAndARepeatFindsNone() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let api = try fixture.responder(clock: { PaymentTests.now })
        let one = try buyer(api, key: a.key, email: "Shared@Example.com")
        let two = try buyer(api, key: a.key, email: "shared@example.com")
        let other = try buyer(api, key: a.key, email: "other@example.com")
        let erased = api.respond(to: s2sRequest(.post, "/s2s/v1/erasures", key: a.key,
                                                body: #"{"email":"SHARED@example.com"}"#))
        #expect(erased.status == 202)
        let id = try #require(jsonObject(erased)["erasureId"] as? String)
        #expect(jsonObject(erased)["guids"] as? [String] == [one, two].sorted())
        let owner = try fixture.ownerConnection()
        for guid in [one, two] {
            #expect(try count(owner, "buyer_emails WHERE guid = $1", [.text(guid)]) == 0)
            #expect(try count(owner, "events WHERE event_type = 'BuyerErased' AND data->>'guid' = $1 "
                + "AND data->>'erasureId' = $2", [.text(guid), .text(id)]) == 1)
        }
        #expect(try count(owner, "buyer_emails WHERE guid = $1", [.text(other)]) == 1)
        let repeated = api.respond(to: s2sRequest(.post, "/s2s/v1/erasures", key: a.key,
                                                  body: #"{"email":"shared@example.com"}"#))
        #expect(repeated.status == 202 && jsonObject(repeated)["guids"] as? [String] == [])
        #expect(try count(owner, "events WHERE event_type = 'EmailErased'", []) == 2)
        #expect(try count(owner, "events WHERE event_type = 'BuyerErased'", []) == 2)
        // By guid afterwards: already erased, by the address's erasure.
        let byGuid = api.respond(to: s2sRequest(.post, "/s2s/v1/users/\(one)/erasure", key: a.key))
        #expect(jsonObject(byGuid)["erasureId"] as? String == id)
        // The erased rows stay erased through a replay.
        _ = try Replayer(projections: ProjectionRegistry.service).run(on: owner)
        #expect(try count(owner, "buyer_emails WHERE guid = ANY ($1::text[])", [.text("{\(one),\(two)}")]) == 0)
        #expect(try count(owner, "buyer_emails WHERE guid = $1", [.text(other)]) == 1)
    }

    @Test func versionOneEventsWithKeyedHashesStillFoldReplayAndAreErasedByAddress() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let api = try fixture.responder(clock: { PaymentTests.now })
        let address = "old.v1@example.com"
        let hash = LookupHash.email(address, pepper: TestIdentity.secrets().lookupPepper)
        let guid = UUID().uuidString.lowercased()
        let org = try #require(UUID(uuidString: a.org))
        // As recorded before lookup references: schema version 1, the keyed hash in clear.
        let events = [
            NewEvent(type: BuyerCreated.eventType, schemaVersion: 1, data: .object([
                "guid": .string(guid), "projectId": .string(a.project), "externalId": .null, "email": .null,
                "emailHash": .string(hash)])),
            NewEvent(type: EmailVerified.eventType, schemaVersion: 1, data: .object([
                "guid": .string(guid), "emailHash": .string(hash),
                "codeHash": .string(String(repeating: "c", count: 64))])),
        ]
        _ = try api.environment.model.log.transact(in: .org(org)) { transaction in
            try transaction.append(org: org, stream: BuyerStreams.buyer(BuyerGuid(stored: guid)!),
                                   expectedVersion: .noStream, events: events,
                                   metadata: EventMetadata(actor: .system("test")))
        }
        let owner = try fixture.ownerConnection()
        #expect(try count(owner, "buyer_emails WHERE guid = $1 AND email_hash = $2 AND verified",
                          [.text(guid), .text(hash)]) == 1)
        // The verified address finds the buyer; the feed reads the old events; a replay rebuilds the same row.
        #expect(try buyer(api, key: a.key, email: address) == guid)
        #expect(api.respond(to: s2sRequest(.get, "/s2s/v1/events", key: a.key)).status == 200)
        try owner.execute("DELETE FROM buyer_emails")
        _ = try Replayer(projections: ProjectionRegistry.service).run(on: owner)
        #expect(try count(owner, "buyer_emails WHERE guid = $1 AND email_hash = $2 AND verified",
                          [.text(guid), .text(hash)]) == 1)
        let erased = api.respond(to: s2sRequest(.post, "/s2s/v1/erasures", key: a.key,
                                                body: #"{"email":"\#(address)"}"#))
        #expect(erased.status == 202 && jsonObject(erased)["guids"] as? [String] == [guid])
        #expect(try count(owner, "buyer_emails WHERE guid = $1", [.text(guid)]) == 0)
        #expect(try count(owner, "subject_keys WHERE subject_id = $1", [.text("email:" + hash)]) == 0)
        let verify = try fixture.database.handoff(["audit", "verify", "--org", a.org])
        #expect(verify.status == .exited(0), "\(verify.stdout)\(verify.stderr)")
    }

    @Test func aBuyersErasureKeepsTheAddressReferenceWhileAnotherBuyerHoldsIt() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let api = try fixture.responder(clock: { PaymentTests.now })
        let one = try buyer(api, key: a.key, email: "shared@example.com")
        let two = try buyer(api, key: a.key, email: "shared@example.com")
        let hash = LookupHash.email("shared@example.com", pepper: TestIdentity.secrets().lookupPepper)
        let owner = try fixture.ownerConnection()
        #expect(try count(owner, "lookup_refs WHERE org_id = $1::uuid AND hash = $2",
                          [.text(a.org), .text(hash)]) == 1)
        #expect(api.respond(to: s2sRequest(.post, "/s2s/v1/users/\(one)/erasure", key: a.key)).status == 202)
        // The other buyer's row still holds the hash and needs the reference on replay.
        #expect(try count(owner, "lookup_refs WHERE org_id = $1::uuid AND hash = $2",
                          [.text(a.org), .text(hash)]) == 1)
        _ = try Replayer(projections: ProjectionRegistry.service).run(on: owner)
        #expect(try count(owner, "buyer_emails WHERE guid = $1", [.text(two)]) == 1)
        #expect(try count(owner, "buyer_emails WHERE guid = $1", [.text(one)]) == 0)
        #expect(api.respond(to: s2sRequest(.post, "/s2s/v1/users/\(two)/erasure", key: a.key)).status == 202)
        #expect(try count(owner, "lookup_refs WHERE org_id = $1::uuid", [.text(a.org)]) == 0)
        #expect(try count(owner, "events WHERE org_id = $1::uuid AND data::text LIKE '%' || $2 || '%'",
                          [.text(a.org), .text(hash)]) == 0)
    }

    @Test func theApplicationRoleCannotUndoNorBypassAnAuditedErasure() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let b = try fixture.tenant()
        let api = try fixture.responder(clock: { PaymentTests.now })
        let erasedGuid = try buyer(api, key: a.key, email: "gone@example.com")
        let keptGuid = try buyer(api, key: a.key, email: "kept@example.com")
        #expect(api.respond(to: s2sRequest(.post, "/s2s/v1/users/\(erasedGuid)/erasure", key: a.key)).status == 202)
        let app = try Connection(configuration: PostgresConfiguration(url: fixture.database.appURL))
        defer { app.close() }
        func refused(_ sql: String, _ parameters: [PostgresValue] = [], scope org: String) -> Bool {
            do {
                try app.execute("BEGIN")
                defer { try? app.execute("ROLLBACK") }
                try app.query("SELECT set_config('handoff.org_id', $1, true)", [.text(org)])
                try app.query(sql, parameters)
                return false
            } catch {
                return true
            }
        }
        // No key row can be brought back or removed by the role itself.
        #expect(refused("UPDATE subject_keys SET destroyed_at = NULL WHERE subject_id = $1", [.text(erasedGuid)],
                        scope: a.org))
        #expect(refused("DELETE FROM subject_keys WHERE subject_id = $1", [.text(erasedGuid)], scope: a.org))
        #expect(refused("INSERT INTO subject_keys (org_id, subject_id, wrapped_key) VALUES ($1::uuid, $2, $3)",
                        [.text(a.org), .text(erasedGuid), .bytea(Array(repeating: 1, count: 60))], scope: a.org))
        // The function erases nothing without the event that records it, nor outside the transaction's org.
        #expect(refused("SELECT buyer_erase($1::uuid, $2)", [.text(a.org), .text(keptGuid)], scope: a.org))
        #expect(refused("SELECT buyer_erase($1::uuid, $2)", [.text(a.org), .text(erasedGuid)], scope: b.org))
        #expect(refused("SELECT email_erase($1::uuid, $2, $3::uuid)",
                        [.text(a.org), .text(String(repeating: "a", count: 64)), .text(UUID().uuidString)],
                        scope: a.org))
        let owner = try fixture.ownerConnection()
        #expect(try count(owner, "subject_keys WHERE subject_id = $1 AND wrapped_key IS NOT NULL",
                          [.text(keptGuid)]) == 1)
        #expect(try count(owner, "buyer_emails WHERE guid = $1", [.text(keptGuid)]) == 1)
        #expect(try count(owner, "subject_keys WHERE subject_id = $1 AND wrapped_key IS NULL",
                          [.text(erasedGuid)]) == 1)
    }
}
