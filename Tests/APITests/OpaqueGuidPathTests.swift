@testable import API
import Commands
import Domain
import EventStore
import Foundation
import HTTPServer
import Testing
import TestSupport

/// Opaque buyer ids along every path that hands a guid back to an app (issue 12 §7): code and install token
/// redemption, the verified e-mail of `POST /s2s/v1/users` and its pass, fingerprints, recovery mail, the events
/// feed and replay. Each answers the guid exactly as the payment gave it.
@Suite struct OpaqueGuidPathTests {
    static let guid = "abc123def456"

    @Test func codesTheVerifiedEmailAndThePassAllAnswerTheOpaqueGuidExactly() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant(["--paywall-url", "https://pay.example.com/"])
        let api = try fixture.responder(clock: { PaymentTests.now })
        let resolver = try ResolveTests.responder(fixture)
        let paid = try ResolveTests.pay(api, key: tenant.key, guid: Self.guid, email: "opaque@example.com")
        let resolved = #"{"success":true,"data":{"guid":"\#(Self.guid)","projectId":"\#(tenant.project)"}}"#
        #expect(bodyText(ResolveTests.resolve(resolver, paid.code, ip: "198.51.100.131")) == resolved)
        #expect(bodyText(ResolveTests.resolve(resolver, paid.token, ip: "198.51.100.131")) == resolved)

        // Redeeming the handoff code verified the address: an e-mail-only lookup finds the opaque guid.
        let user = api.respond(to: s2sRequest(.post, "/s2s/v1/users", key: tenant.key,
                                              body: #"{"email":"opaque@example.com"}"#))
        let url = try #require(jsonObject(user)["paywallUrl"] as? String)
        #expect(bodyText(user) == #"{"guid":"\#(Self.guid)","paywallUrl":"\#(url)","user_id":"\#(Self.guid)"}"#)
        let pass = try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "pass" }?.value)
        #expect(pass.hasPrefix("v2."))
        let claims = PassClaims(guid: try BuyerGuid.parse(Self.guid).get(),
                                projectID: try ProjectID.parse(tenant.project).get(),
                                expiresAt: PaymentTests.now.addingTimeInterval(Pass.lifetime))
        #expect(Pass.verify(pass, now: PaymentTests.now, keys: TestIdentity.secrets().passKeys) == .valid(claims))
        let buyer = api.respond(to: publicRequest("/public/paywall/buyer", query: [
            "projectId": tenant.project, "pass": pass,
        ], clientIP: "198.51.100.132"))
        #expect(bodyText(buyer) == #"{"success":true,"data":{"guid":"\#(Self.guid)","source":"pass"}}"#)
    }

    @Test func aFingerprintResolvesToTheOpaqueGuidExactly() throws {
        let world = try FingerprintFixture()
        let android = "9f3c6a2b1d4e5f60"
        let paid = try world.pay(guid: android)
        #expect(world.capture(paid.token).status == 204)
        world.clock.advance(600)
        #expect(bodyText(world.resolve(world.probe())) == FingerprintFixture.found(android, "fingerprint"))
    }

    @Test func aRecoveryMailCodeResolvesToTheOpaqueGuidExactly() throws {
        let flow = try EmailRecoveryFlow()
        let upper = "6F1C2E3A-9B4D-4E5F-8A7B-0C1D2E3F4A5B"
        let paid = flow.api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: flow.tenant.key, body:
            PaymentTests.body(guid: upper, extra: #","email":"upper@example.com""#)))
        #expect(paid.status == 200, "\(bodyText(paid))")
        #expect(flow.request(flow.body(email: "upper@example.com")).status == 204)
        try flow.work(jobs: 1)
        let mail = try #require(flow.sink.messages().first)
        let code = try #require(RecoveryMail.textPart(mail).split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.first { HandoffCode.parse($0) != nil })
        let resolved = ResolveTests.resolve(flow.api, code, ip: "198.51.100.133")
        #expect((jsonObject(resolved)["data"] as? [String: Any])?["guid"] as? String == upper)
    }

    @Test func theEventsFeedShowsTheOpaqueGuidAndOpensItsPersonalDataUntilErased() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try fixture.responder(clock: { PaymentTests.now })
        #expect(api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: tenant.key, body:
            PaymentTests.body(guid: Self.guid, extra: #","email":"feed@example.com""#))).status == 200)
        func created() -> [String: Any]? {
            let feed = api.respond(to: s2sRequest(.get, "/s2s/v1/events", key: tenant.key))
            return (jsonObject(feed)["events"] as? [[String: Any]])?
                .first { $0["event_type"] as? String == "BuyerCreated" }?["data"] as? [String: Any]
        }
        #expect(created()?["guid"] as? String == Self.guid)
        #expect(created()?["email"] as? String == "feed@example.com")
        try SubjectKeys(masterKey: TestIdentity.secrets().masterKey)
            .destroy(org: try #require(UUID(uuidString: tenant.org)), subject: Self.guid,
                     on: try fixture.ownerConnection())
        #expect(created()?["email"] as? [String: Bool] == ["erased": true])
    }

    @Test func replayRebuildsTheRowsOfOpaqueGuidsEqualToTheLiveOnes() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try fixture.responder(clock: { PaymentTests.now })
        let resolver = try ResolveTests.responder(fixture)
        for (index, guid) in ["ABC", "abc", "9f3c6a2b1d4e5f60", "x.y_z:1-2"].enumerated() {
            let paid = try ResolveTests.pay(api, key: tenant.key, guid: guid, paymentId: "pi_\(index)",
                                            email: "r\(index)@example.com")
            #expect(ResolveTests.resolve(resolver, paid.code, ip: "198.51.100.134").status == 200)
        }
        let owner = try fixture.ownerConnection()
        func snapshot() throws -> [[String?]] {
            try owner.query("SELECT * FROM payments ORDER BY payment_id").rows.map(\.values) + [["--"]]
                + owner.query("SELECT * FROM handoff_codes ORDER BY code_hash").rows.map(\.values) + [["--"]]
                + owner.query("SELECT * FROM buyer_emails ORDER BY guid, email_hash").rows.map(\.values) + [["--"]]
                + owner.query("SELECT * FROM buyers ORDER BY guid").rows.map(\.values)
        }
        let live = try snapshot()
        #expect(try owner.query("SELECT guid FROM buyers ORDER BY guid COLLATE \"C\"").rows
            .map { try $0.string("guid") } == ["9f3c6a2b1d4e5f60", "ABC", "abc", "x.y_z:1-2"])
        try owner.execute(
            "DELETE FROM payments; DELETE FROM handoff_codes; DELETE FROM buyer_emails; DELETE FROM buyers")
        _ = try Replayer(projections: ProjectionRegistry.service).run(on: owner)
        #expect(try snapshot() == live)
    }
}
