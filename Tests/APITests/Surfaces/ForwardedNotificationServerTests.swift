import Foundation
import HTTPClient
import Postgres
import Testing
import TestSupport

/// A developer's server forwarding to a real `handoff serve` (issue 15): the surface made with the real CLI, every
/// forward built and sent over HTTP by Tests/Peers/assn_client.py, written from the issue's text.
@Suite struct ForwardedNotificationServerTests {
    /// A running `handoff serve` on a fresh database, trusting the Apple test root, with the test identity secrets
    /// (the CLI and the server seal and open with one master key).
    final class Server: @unchecked Sendable {
        let database: ScratchDatabase
        let base: String
        private let process: ChildProcess

        init() throws {
            database = try ScratchDatabase.migrated(prefix: "surfaces")
            let port = try Shell.freePort()
            base = "http://127.0.0.1:\(port)"
            process = try ChildProcess([try HandoffBinary.path(), "serve"], environment: [
                "HTTP_PORT": String(port), "DATABASE_URL": database.appURL, "REDIS_URL": try TestEnvironment.redisURL(),
                "PATH": "/usr/bin:/bin", "PUBLIC_BASE_URL": base, "LOG_LEVEL": "error", "METRICS_ADDRESS": "off",
                "HANDOFF_MASTER_KEY": Self.base64URL(TestIdentity.secrets().masterKey),
                "HANDOFF_LOOKUP_PEPPER": Self.base64URL(TestIdentity.secrets().lookupPepper),
                "HANDOFF_PASS_KEYS": "old1:" + Self.base64URL(TestIdentity.oldPassKey),
                "APPLE_ROOT_CERTIFICATES": AppleFixtures.certificatePath("testCA.der"),
                // The test sends some 30 requests to one surface within a second; the limit has a test of its own.
                "RATE_LIMIT_MULTIPLIER": "10",
            ])
            for _ in 0..<200 {
                if (try? send("GET", "/healthz").status) == 200 { return }
                usleep(100_000)
            }
            throw AdminFailed(outcome: "handoff serve did not start: \(process.output())")
        }

        deinit {
            process.signal(SIGTERM)
            _ = try? process.wait(timeout: 30)
        }

        func send(_ method: String, _ path: String, key: String? = nil, body: String = "") throws -> HTTPResponse {
            var headers = [("Content-Type", "application/json")]
            if let key { headers.append(("Authorization", "Bearer " + key)) }
            return try HTTPClient().send(HTTPRequest(method: method, url: base + path, headers: headers,
                                                     body: Array(body.utf8), totalTimeout: 20))
        }

        func json(_ response: HTTPResponse) -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
        }

        /// `handoff admin <arguments>` against this database, sealing like the server, URLs on its base.
        func admin(_ arguments: [String]) throws -> [String: Any] {
            try database.admin(arguments, environment: AppFixture.masterKeyEnvironment.merging(
                ["PUBLIC_BASE_URL": base]) { $1 }).json()
        }

        /// How many events of `type` whose data has `notificationId` are in the log.
        func count(_ type: String, notificationId: String? = nil) throws -> Int {
            let owner = try Connection(configuration: PostgresConfiguration(url: database.ownerURL))
            return try owner.query("""
                SELECT count(*)::int AS n FROM events
                WHERE event_type = $1 AND ($2::text IS NULL OR data->>'notificationId' = $2)
                """, [.text(type), .optional(notificationId)]).rows.first.map { Int(try $0.string("n")) ?? -1 } ?? -1
        }

        static func base64URL(_ bytes: [UInt8]) -> String {
            Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
    }

    @Test func theClientsForwardsAreTakenRetriedRefusedAndDeduplicatedOverHTTP() throws {
        let server = try Server()
        let tenant = try server.database.tenant()
        let app = try server.admin(["app", "create", "--project", tenant.project, "--platform", "ios", "--bundle-id",
                                    "com.example", "--app-apple-id", "1234"])
        let appId = try #require(app["appId"] as? String)
        let surface = try server.admin(["surface", "create", "--app", appId])
        let url = try #require(surface["forwardingUrl"] as? String)
        let secret = try #require(surface["forwardingSecret"] as? String)
        #expect(url == server.base + "/v1/app-store/assn/" + (surface["surfaceId"] as? String ?? "-"))

        let user = try server.send("POST", "/s2s/v1/users", key: tenant.key, body: #"{"externalId":"buyer-1"}"#)
        let guid = try #require(server.json(user)["guid"] as? String)
        let minted = try server.send("POST", "/public/app-account-token",
                                     body: #"{"projectId":"\#(tenant.project)","guid":"\#(guid)"}"#)
        let token = try #require((server.json(minted)["data"] as? [String: Any])?["appAccountToken"] as? String)

        let uuid = UUID().uuidString.lowercased()
        let purchase = AssnClient(secret: secret, signedPayload: SurfaceFixture.signedPayload(
            of: AppleIntakeTests.notification("SUBSCRIBED", token: token, uuid: uuid, expiresDate: 1_893_456_000_000)))
        let first = try purchase.send(to: url)
        #expect(first.responses.map(\.status) == [200] && first.responses.first?.body == "")
        let entitlements = try server.send("GET", "/s2s/v1/users/\(guid)/entitlements", key: tenant.key)
        let listed = server.json(entitlements)["entitlements"] as? [[String: Any]] ?? []
        #expect(listed.count == 1 && listed.first?["status"] as? String == "active")

        // The same bytes retried 71 hours after they were first signed: taken, answered alike, recorded once.
        let retry = try purchase.send(to: url, ageSeconds: 71 * 3600)
        #expect(retry.responses.map(\.status) == [200] && retry.responses.first?.body == "")
        #expect(try server.count("StoreNotificationReceived", notificationId: uuid) == 1)

        // Too old, too far ahead, or changed after signing: 401, nothing recorded.
        let fresh = UUID().uuidString.lowercased()
        let other = AssnClient(secret: secret, signedPayload: SurfaceFixture.signedPayload(
            of: AppleIntakeTests.notification("DID_RENEW", token: token, uuid: fresh)))
        let old = try other.send(to: url, ageSeconds: 73 * 3600)
        #expect(old.responses.first?.status == 401)
        #expect(old.responses.first?.body.contains("more than 72 hours in the past") == true)
        #expect(try other.send(to: url, ageSeconds: -6 * 60).responses.map(\.status) == [401])
        for tamper in ["timestamp", "body", "signature"] {
            let tampered = try other.send(to: url, tamper: tamper)
            #expect(tampered.responses.map(\.status) == [401], "\(tamper)")
            #expect(tampered.responses.first?.body.contains("does not verify") == true, "\(tamper)")
        }
        #expect(try server.count("StoreNotificationReceived", notificationId: fresh) == 0)

        // Twenty identical copies at once: every one 200, one record, one renewal.
        let copies = try other.send(to: url, copies: 20)
        #expect(copies.responses.map(\.status) == Array(repeating: 200, count: 20))
        #expect(Set(copies.responses.map(\.body)) == [""])
        #expect(try server.count("StoreNotificationReceived", notificationId: fresh) == 1)
        #expect(try server.count("PaymentRenewed") == 1)
        #expect(try server.count("StoreNotificationReceived") == 2)
    }
}
