import API
import Commands
import Crypto
import Domain
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport

extension IngestFixture {
    /// `POST /v1/m/erase` with `body`, from the iOS SDK.
    func erase(_ body: String, clientIP: String = "198.51.100.90") -> Response {
        api.respond(to: Request(method: .post, path: "/v1/m/erase", query: [:],
                                headers: Headers([("Content-Type", "application/json"),
                                                  ("User-Agent", "X3Kit/1.4.2 (iOS 17.5.1)")]),
                                body: Array(body.utf8), clientIP: clientIP, remoteAddress: clientIP))
    }
}

/// `POST /v1/m/erase` (issue 20): the device proves it holds the install's erase secret (`dp` = its SHA-256 in the
/// batches) and the install's rows, recordings, account tokens and personal-data key go; the answer never tells.
@Suite struct IngestEraseTests {
    static let secret = "5f2b8c1e9d4a7f3b6e0c2d8a1f5b9e3c7d4a0f6b2e8c5d1a9f3b7e0c4d2a8f6b"
    static let otherSecret = String(repeating: "e1", count: 32)
    static func proof(_ secret: String) -> String { Hex.encode(SHA256.hash(Array(secret.utf8))) }

    static func erase(key: String, inst: String, secret: String = secret, plat: String = "ios",
                      bid: String = "com.example.Reader") -> String {
        #"{"v":1,"k":"\#(key)","app":{"plat":"\#(plat)","bid":"\#(bid)"},"inst":"\#(inst)","secret":"\#(secret)"}"#
    }

    static let accepted = #"{"ok":true}"#

    /// Rows of install `inst` of app `app` in each table that holds install data, in this order: sessions, events,
    /// screen views, account tokens, erase proofs, recorded sessions.
    static func counts(_ fixture: IngestFixture, app: String, inst: String) throws -> [Int] {
        let hash = Hex.encodeHMAC(app: app, inst: inst)
        let owner = try fixture.apps.tenants.ownerConnection()
        return try ["ingest_sessions", "ingest_events", "ingest_screen_views", "app_install_identities",
                    "app_install_erase_proofs", "recording_sessions"].map { table in
            Int(try owner.query("SELECT count(*) AS n FROM \(table) WHERE app_id = $1::uuid AND install_hash = $2",
                                [.text(app), .text(hash)]).rows[0].string("n")) ?? -1
        }
    }

    private func erasures(_ fixture: IngestFixture, app: String) throws -> [String] {
        try fixture.apps.tenants.ownerConnection().query("""
            SELECT data->>'origin' AS origin, data->>'installHash' AS install FROM events
            WHERE event_type = 'AppInstallErased' AND data->>'appId' = $1 ORDER BY global_pos
            """, [.text(app)]).rows.map { try $0.string("origin") + ":" + $0.string("install") }
    }

    private func recording(_ fixture: IngestFixture, key: String, inst: String) throws -> Response {
        let at = Int(Date().timeIntervalSince1970 * 1000)
        let header = RecordingPacketTests.header(key: key, ins: inst, sid: "R-\(inst)", at: at)
        let script = "import base64, gzip, sys; sys.stdout.write(base64.b64encode(gzip.compress("
            + "base64.b64decode(sys.argv[1]))).decode())"
        let events = RecordingPacketTests.events(at: at, shot: false)
        let output = try Shell.run(["python3", "-c", script, Data(events.utf8).base64EncodedString()])
        let gzipped = Array(try #require(Data(base64Encoded: output.trimmingCharacters(in: .whitespacesAndNewlines))))
        return fixture.recording(RecordingFrame.join(header: Array(header.utf8), events: gzipped))
    }

    @Test func theInstallsSecretErasesItsRowsRecordingsTokensAndLeadContactAndNothingElse() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        #expect(try fixture.admin(["ingest-settings", "--app", app.appId, "--recording", "on", "--leads", "on"]).status
                == .exited(0))
        let identity = #""xid":"\#(IngestIdentityTests.xid)""#
        for inst in ["A", "B"] {
            let dp = Self.proof(inst == "A" ? Self.secret : Self.otherSecret)
            #expect(fixture.batch(IngestIdentityTests.batch(app.key, inst: inst, identity: identity, dp: dp)).status
                    == 200)
            #expect(try recording(fixture, key: app.key, inst: inst).status == 200)
        }
        let lead = IngestLeadTests.lead(key: app.key, inst: "A")
        #expect(fixture.api.respond(to: Request(
            method: .post, path: "/v1/m/lead", query: [:], headers: Headers([("Content-Type", "application/json")]),
            body: Array(lead.utf8), clientIP: "198.51.100.91", remoteAddress: "198.51.100.91")).status == 202)
        let kept = [1, 2, 1, 1, 1, 1]
        #expect(try Self.counts(fixture, app: app.appId, inst: "A") == kept)
        // Another install's secret, or none stored: the same answer, nothing erased.
        for body in [Self.erase(key: app.key, inst: "A", secret: Self.otherSecret),
                     Self.erase(key: app.key, inst: "Z")] {
            let answer = fixture.erase(body)
            #expect(answer.status == 202 && bodyText(answer) == Self.accepted)
        }
        #expect(try Self.counts(fixture, app: app.appId, inst: "A") == kept)
        let erased = fixture.erase(Self.erase(key: app.key, inst: "A"))
        #expect(erased.status == 202 && bodyText(erased) == Self.accepted)
        #expect(erased.headers["Content-Type"] == "application/json")
        #expect(try Self.counts(fixture, app: app.appId, inst: "A") == [0, 0, 0, 0, 0, 0])
        #expect(try Self.counts(fixture, app: app.appId, inst: "B") == kept)
        let packets = try fixture.apps.tenants.ownerConnection().query(
            "SELECT session_id FROM recording_packets WHERE app_id = $1::uuid", [.text(app.appId)]).rows
        #expect(try packets.map { try $0.string("session_id") } == ["R-B"])
        #expect(try erasures(fixture, app: app.appId) == ["device:" + Hex.encodeHMAC(app: app.appId, inst: "A")])
        let leads = jsonObject(fixture.api.respond(to: s2sRequest(.get, "/s2s/v1/apps/\(app.appId)/leads",
                                                                  key: app.tenant.key)))["leads"] as? [[String: Any]]
        #expect((leads?.first?["email"] as? [String: Bool]) == ["erased": true])
        // Erased once: the same secret again finds no proof and records nothing more.
        #expect(bodyText(fixture.erase(Self.erase(key: app.key, inst: "A"))) == Self.accepted)
        #expect(try erasures(fixture, app: app.appId).count == 1)
    }

    @Test func theFirstProofIsKeptAlsoFromABatchNotStoredForConsent() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let first = IngestIdentityTests.batch(app.key, inst: "A", identity: nil, cs: "dddd",
                                              dp: Self.proof(Self.secret))
        #expect(bodyText(fixture.batch(first)).contains(#""reason":"consent""#))
        #expect(try Self.counts(fixture, app: app.appId, inst: "A") == [0, 0, 0, 0, 1, 0])
        let later = IngestIdentityTests.batch(app.key, inst: "A", identity: nil, dp: Self.proof(Self.otherSecret))
        #expect(fixture.batch(later).status == 200)
        #expect(bodyText(fixture.erase(Self.erase(key: app.key, inst: "A", secret: Self.otherSecret)))
                == Self.accepted)
        #expect(try Self.counts(fixture, app: app.appId, inst: "A") == [1, 2, 1, 0, 1, 0])
        #expect(bodyText(fixture.erase(Self.erase(key: app.key, inst: "A"))) == Self.accepted)
        #expect(try Self.counts(fixture, app: app.appId, inst: "A") == [0, 0, 0, 0, 0, 0])
        // A bot's batch keeps no proof.
        #expect(bodyText(fixture.batch(first, userAgent: "curl/8.4.0")).contains(#""reason":"bot""#))
        #expect(try Self.counts(fixture, app: app.appId, inst: "A") == [0, 0, 0, 0, 0, 0])
    }

    @Test func aProofOfTheSecretsBytesOrOfItsTextAnswersTheSecretInEitherCase() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let ofBytes = Hex.encode(SHA256.hash(try #require(Hex.decode(Self.secret))))
        for (inst, dp, sent) in [("A", ofBytes, Self.secret), ("B", Self.proof(Self.secret), Self.secret.uppercased()),
                                 ("C", ofBytes, Self.secret.uppercased())] {
            let batch = IngestIdentityTests.batch(app.key, inst: inst, identity: nil, dp: dp)
            #expect(fixture.batch(batch).status == 200, "\(inst)")
            #expect(try Self.counts(fixture, app: app.appId, inst: inst)[4] == 1, "\(inst)")
            #expect(bodyText(fixture.erase(Self.erase(key: app.key, inst: inst, secret: sent))) == Self.accepted)
            #expect(try Self.counts(fixture, app: app.appId, inst: inst) == [0, 0, 0, 0, 0, 0], "\(inst)")
        }
        // Neither reading of another secret matches.
        let kept = IngestIdentityTests.batch(app.key, inst: "D", identity: nil, dp: ofBytes)
        #expect(fixture.batch(kept).status == 200)
        #expect(bodyText(fixture.erase(Self.erase(key: app.key, inst: "D", secret: Self.otherSecret))) == Self.accepted)
        #expect(try Self.counts(fixture, app: app.appId, inst: "D")[4] == 1)
    }

    @Test func anotherOrgsAppCannotEraseThisOrgsInstall() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let foreign = try fixture.app()
        let dp = Self.proof(Self.secret)
        #expect(fixture.batch(IngestIdentityTests.batch(app.key, inst: "A", identity: nil, dp: dp)).status == 200)
        #expect(bodyText(fixture.erase(Self.erase(key: foreign.key, inst: "A"))) == Self.accepted)
        #expect(try Self.counts(fixture, app: app.appId, inst: "A") == [1, 2, 1, 0, 1, 0])
    }

    @Test func refusalsNameThePartAndTenPerMinutePerClientIPAreTaken() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let cases: [(String, Int, String)] = [
            (Self.erase(key: app.key, inst: "A", secret: "abc"), 400,
             #"{"ok":false,"code":"invalid","detail":"secret must be 64 hex digits"}"#),
            (Self.erase(key: app.key, inst: "A", secret: String(repeating: "g", count: 64)), 400,
             #"{"ok":false,"code":"invalid","detail":"secret must be 64 hex digits"}"#),
            (#"{"v":1,"k":"\#(app.key)","app":{"plat":"ios","bid":"com.example.Reader"},"secret":"\#(Self.secret)"}"#,
             400, #"{"ok":false,"code":"invalid","detail":"inst is required"}"#),
            (Self.erase(key: "pk_3x_" + String(repeating: "A", count: 32), inst: "A"), 403,
             #"{"ok":false,"code":"key"}"#),
            (Self.erase(key: app.key, inst: "A", bid: "com.example.Other"), 403,
             #"{"ok":false,"code":"app_mismatch"}"#),
        ]
        for (body, status, answer) in cases {
            let response = fixture.erase(body, clientIP: "198.51.100.92")
            #expect(response.status == status && bodyText(response) == answer)
        }
        for _ in 0..<10 {
            #expect(fixture.erase(Self.erase(key: app.key, inst: "A"), clientIP: "198.51.100.93").status == 202)
        }
        let limited = fixture.erase(Self.erase(key: app.key, inst: "A"), clientIP: "198.51.100.93")
        #expect(limited.status == 429 && jsonObject(limited)["code"] as? String == "rate_limited")
        #expect(limited.headers["Retry-After"] != nil)
        #expect(fixture.erase(Self.erase(key: app.key, inst: "A"), clientIP: "198.51.100.94").status == 202)
    }
}
