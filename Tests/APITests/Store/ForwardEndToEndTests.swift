import API
import Crypto
import Foundation
import HTTPServer
import Testing
import TestSupport
import Workers

/// A store notification from the store URL to the developer's servers (issue 14), with nothing stood in for: an app
/// made over S2S with a forward URL and an attribloom destination, a freshly signed App Store notification posted to
/// its Apple store URL, the store token rotated before any worker ran, then the dispatcher, relay and `forward`
/// consumer over the apps write model (`ForwardWorkers`), delivering to the Python receiver, which checks both
/// signature schemes from the issue's text and records the exact bytes.
@Suite struct ForwardEndToEndTests {
    static let attribloomSecret = "ea-e2e-secret-0123456789"

    /// The body as a store might send it: spaces, a line break; it must arrive at the x3 receiver byte for byte.
    static func body(_ jws: String) -> [UInt8] { Array("{ \"signedPayload\" : \"\(jws)\" }\n".utf8) }

    /// A DID_RENEW with a nested transaction and renewal info, signed with the test chain.
    static func jws(uuid: String) -> String {
        AppleSigner.test.sign(ApplePayloads.notification(
            type: "DID_RENEW", uuid: uuid,
            transaction: AppleSigner.test.sign(ApplePayloads.transaction(appAccountToken: UUID().uuidString)),
            renewalInfo: AppleSigner.test.sign(ApplePayloads.renewalInfo())))
    }

    /// The hex SHA-256 of a store token, as the notification's event carries it.
    static func tokenHash(_ token: String) -> String { Hex.encode(SHA256.hash(Array(token.utf8))) }

    /// `sha256=<hex HMAC-SHA256(message, key)>`.
    static func signature(key: String, _ message: [UInt8]) -> String {
        "sha256=" + Hex.encode(HMAC.sha256(key: Array(key.utf8), message: message))
    }

    @Test func aNotificationIsForwardedByteForByteSignedWithTheTokenItArrivedUnderAcrossARotation() throws {
        let fixture = try StoreFixture.migrated()
        let app = try fixture.appleApp()
        let key = fixture.tenant.key
        // The developer's server learns the store token from the answer that created the app, then gets its URL.
        let first = try ForwardReceiver(host: "127.0.0.2", x3Token: app.token, attribloomSecret: Self.attribloomSecret)
        let firstHost = "hooks-1.handoff.test"
        let forwardURL = "http://\(firstHost):\(first.port)/x3/store"
        let attribloomURL = "http://\(firstHost):\(first.port)/v1/app-store/assn/surface-1"
        let patched = fixture.apps.send(.patch, "/s2s/v1/apps/\(app.id)", key: key,
                                        body: #"{"forwardUrl":"\#(forwardURL)"}"#)
        #expect(patched.status == 200, "\(bodyText(patched))")
        let x3Id = try #require((jsonObject(patched)["destinations"] as? [[String: Any]])?.first?["destinationId"]
            as? String)
        let added = fixture.apps.send(.post, "/s2s/v1/apps/\(app.id)/destinations", key: key, body: """
            {"scheme":"attribloom","url":"\(attribloomURL)","secret":"\(Self.attribloomSecret)"}
            """)
        #expect(added.status == 201, "\(bodyText(added))")
        let attribloomId = try #require(jsonObject(added)["destinationId"] as? String)

        // Intake under the first token.
        let firstJWS = Self.jws(uuid: UUID().uuidString.lowercased())
        let firstBody = Self.body(firstJWS)
        let accepted = fixture.post("apple", token: app.token, bytes: firstBody)
        #expect(accepted.status == 200 && accepted.body.isEmpty, "\(bodyText(accepted))")

        // The token is rotated before any worker runs: the old URL is a plain 404 at once, and the store's retry of
        // the same notification at the new URL is a repeat (nothing recorded, nothing forwarded twice).
        let rotated = fixture.apps.send(.post, "/s2s/v1/apps/\(app.id)/store-token", key: key)
        #expect(rotated.status == 200)
        let newToken = try #require(jsonObject(rotated)["storeToken"] as? String)
        #expect(newToken != app.token)
        let unknown = fixture.post("apple", token: String(repeating: "Q", count: 32), bytes: firstBody)
        let old = fixture.post("apple", token: app.token, bytes: Self.body(Self.jws(uuid: UUID().uuidString)))
        #expect(old.status == 404 && old.body == unknown.body)
        #expect(fixture.post("apple", token: app.token, bytes: firstBody).status == 404)
        #expect(fixture.post("apple", token: newToken, bytes: firstBody).status == 200)
        let received = try fixture.events("StoreNotificationReceived")
        #expect(received.count == 1)
        #expect(received.first?.data.contains(#""storeTokenHash": "\#(Self.tokenHash(app.token))""#) == true)

        // The developer's next server knows the new token; the workers start only now.
        let second = try ForwardReceiver(host: "127.0.0.2", x3Token: newToken,
                                         attribloomSecret: Self.attribloomSecret)
        let secondHost = "hooks-2.handoff.test"
        let workers = try ForwardWorkers(
            database: fixture.apps.tenants.database, model: fixture.apps.model, allowed: "127.0.0.2/32",
            pinned: ["\(firstHost):\(first.port):127.0.0.2", "\(secondHost):\(second.port):127.0.0.2"])
        let startedAt = Int(Date().timeIntervalSince1970)
        var jobs = try workers.drain(jobs: 2, org: fixture.tenant.org)
        let finishedAt = Int(Date().timeIntervalSince1970)
        #expect(Set(jobs.map(\.dedupeKey).map { $0.split(separator: ":").last.map(String.init) ?? "" })
            == [x3Id, attribloomId])
        #expect(jobs.allSatisfy { $0.state == .done && $0.outcome == "forwarded: 200" }, "\(jobs.map(\.outcome))")

        let atFirst = first.requests()
        try #require(atFirst.count == 2)
        let x3 = try #require(atFirst.first { $0.path == "/x3/store" })
        #expect(x3.verdict == "ok")
        #expect(x3.body == firstBody)
        #expect(x3.header("content-type") == "application/json" && x3.header("x-x3-forwarded") == "1")
        #expect(x3.header("x-x3-signature") == Self.signature(key: app.token, firstBody))
        #expect(x3.header("x-x3-signature") != Self.signature(key: newToken, firstBody))
        let ea = try #require(atFirst.first { $0.path == "/v1/app-store/assn/surface-1" })
        let eaBody = Array(#"{"signedPayload":"\#(firstJWS)"}"#.utf8)
        #expect(ea.verdict == "ok" && ea.signedPayload == firstJWS && ea.body == eaBody)
        let timestamp = try #require(ea.header("x-ea-timestamp").flatMap(Int.init))
        #expect((startedAt...finishedAt).contains(timestamp))
        #expect(ea.header("x-ea-signature")
            == Self.signature(key: Self.attribloomSecret, Array("\(timestamp).".utf8) + eaBody))

        // Notifications that arrive after the rotation are signed with the new token.
        let moved = fixture.apps.send(.patch, "/s2s/v1/apps/\(app.id)", key: key,
                                      body: #"{"forwardUrl":"http://\#(secondHost):\#(second.port)/x3/store"}"#)
        #expect(moved.status == 200, "\(bodyText(moved))")
        let secondJWS = Self.jws(uuid: UUID().uuidString.lowercased())
        let secondBody = Self.body(secondJWS)
        #expect(fixture.post("apple", token: newToken, bytes: secondBody).status == 200)
        jobs = try workers.drain(jobs: 4, org: fixture.tenant.org)
        #expect(jobs.count == 4 && jobs.allSatisfy { $0.state == .done && $0.outcome == "forwarded: 200" })
        let atSecond = second.requests()
        try #require(atSecond.count == 1)
        #expect(atSecond[0].verdict == "ok" && atSecond[0].path == "/x3/store" && atSecond[0].body == secondBody)
        #expect(atSecond[0].header("x-x3-signature") == Self.signature(key: newToken, secondBody))
        let atFirstAgain = first.requests()
        #expect(atFirstAgain.count == 3)
        #expect(atFirstAgain.last?.verdict == "ok" && atFirstAgain.last?.signedPayload == secondJWS)

        // The delivery log of the app: four attempts, newest first; another organization's key sees no such app.
        let deliveries = fixture.apps.send(.get, "/s2s/v1/apps/\(app.id)/deliveries", key: key)
        #expect(deliveries.status == 200)
        let rows = try #require(jsonObject(deliveries)["deliveries"] as? [[String: Any]])
        #expect(rows.count == 4)
        #expect(rows.allSatisfy {
            $0["delivered"] as? Bool == true && $0["status"] as? Int == 200 && $0["attempt"] as? Int == 1
                && $0["answer"] as? String == "accepted" && $0["appId"] as? String == app.id
        })
        #expect(rows.compactMap { $0["urlHost"] as? String }.sorted() == [firstHost, firstHost, firstHost, secondHost])
        let eventIds = rows.compactMap { $0["notificationEventId"] as? String }
        #expect(eventIds.count == 4 && Set(eventIds).count == 2)
        #expect(Set(rows.compactMap { $0["jobId"] as? Int }) == Set(jobs.map(\.id)))
        let other = try fixture.apps.tenants.tenant()
        let foreign = fixture.apps.send(.get, "/s2s/v1/apps/\(app.id)/deliveries", key: other.key)
        #expect(foreign.status == 404)
        #expect(bodyText(foreign) == bodyText(fixture.apps.send(
            .get, "/s2s/v1/apps/\(UUID().uuidString.lowercased())/deliveries", key: other.key)))
    }
}
