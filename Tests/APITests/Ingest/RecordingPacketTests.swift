import API
import Commands
import Crypto
import Domain
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport

/// `POST /v1/m/r` (issue 21): recording packets — framing, caps, consent `gg`, health apps, screenshots as
/// deduplicated assets only while `recording.screenshots` is on, `page_excluded`, the 403 codes, another org's app.
@Suite struct RecordingPacketTests {
    /// A small image's bytes (a PNG signature and a few more bytes: the server checks the hash, not the picture).
    static let image: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("wireframe-shot".utf8)
    static var imageSha: String { Hex.encode(SHA256.hash(image)) }

    /// rrweb events of one screen: Meta, FullSnapshot (a wireframe), a screenshot (with its bytes when `shot`) and an
    /// IncrementalSnapshot, at device time `at` in Unix milliseconds.
    static func events(at: Int, shot: Bool = true, sha: String = imageSha) -> String {
        var lines = [
            #"{"type":4,"data":{"href":"app://Home","width":390,"height":844},"timestamp":\#(at - 900)}"#,
            #"{"type":2,"data":{"node":{"type":0,"id":1,"childNodes":[]},"initialOffset":{"left":0,"top":0}},"#
                + #""timestamp":\#(at - 800)}"#,
        ]
        let data = shot ? #","data":"\#(Data(image).base64EncodedString())""# : ""
        lines.append(#"{"type":5,"data":{"tag":"x3","payload":{"e":"img","sha":"\#(sha)","mime":"image/png""#
                     + #"\#(data)}},"timestamp":\#(at - 700)}"#)
        lines.append(#"{"type":3,"data":{"source":2,"type":2,"id":1,"x":10,"y":20},"timestamp":\#(at - 100)}"#)
        return lines.joined(separator: "\n") + "\n"
    }

    static func header(key: String, plat: String = "ios", bid: String = "com.example.Reader", ins: String = "I-4F2A",
                       sid: String = "S-1",
                       seq: Int = 0, sec: String = "session-secret-0123456789", cm: String = "opt_in",
                       cs: String = "gg", scr: String = "Home", at: Int) -> String {
        #"{"v":1,"k":"\#(key)","plat":"\#(plat)","bid":"\#(bid)","ins":"\#(ins)","sid":"\#(sid)","seq":\#(seq),"#
            + #""sec":"\#(sec)","at":\#(at),"scr":"\#(scr)","cm":"\#(cm)","cs":"\#(cs)"}"#
    }

    private func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let script = "import base64, gzip, sys; sys.stdout.write(base64.b64encode(gzip.compress("
            + "base64.b64decode(sys.argv[1]))).decode())"
        let output = try Shell.run(["python3", "-c", script, Data(bytes).base64EncodedString()])
        return Array(try #require(Data(base64Encoded: output.trimmingCharacters(in: .whitespacesAndNewlines))))
    }

    private func packet(_ header: String, _ events: String) throws -> [UInt8] {
        RecordingFrame.join(header: Array(header.utf8), events: try gzip(Array(events.utf8)))
    }

    private var now: Int { Int(Date().timeIntervalSince1970 * 1000) }

    private func count(_ fixture: IngestFixture, _ table: String, app: String) throws -> Int {
        Int(try fixture.apps.tenants.ownerConnection().query(
            "SELECT count(*) AS n FROM \(table) WHERE app_id = $1::uuid", [.text(app)]).rows[0].string("n")) ?? -1
    }

    private func recordingApp(_ fixture: IngestFixture, _ settings: [String] = [],
                              tenant: (org: String, project: String, key: String)? = nil,
                              bundleId: String = "com.example.Reader") throws -> IngestFixture.App {
        let app = try fixture.app(bundleId: bundleId, tenant: tenant)
        let changed = try fixture.admin(["ingest-settings", "--app", app.appId, "--recording", "on"] + settings)
        #expect(changed.status == .exited(0))
        return app
    }

    @Test func aGrantedPacketIsStoredOnceAndItsSessionKeepsItsFirstSecret() throws {
        let fixture = try IngestFixture.migrated()
        let app = try recordingApp(fixture)
        let at = now
        let first = fixture.recording(try packet(Self.header(key: app.key, at: at), Self.events(at: at)))
        #expect(first.status == 200)
        #expect(bodyText(first) == "ok")
        #expect(first.headers["Content-Type"] == "text/plain; charset=utf-8")
        let again = fixture.recording(try packet(Self.header(key: app.key, at: at), Self.events(at: at)))
        #expect(again.status == 403)
        #expect(bodyText(again) == #"{"ok":false,"code":"duplicate"}"#)
        let forged = fixture.recording(try packet(Self.header(key: app.key, seq: 1, sec: "another-secret-0123456789",
                                                              at: at), Self.events(at: at)))
        #expect(forged.status == 403)
        #expect(bodyText(forged) == #"{"ok":false,"code":"secret"}"#)
        let next = fixture.recording(try packet(Self.header(key: app.key, seq: 1, at: at), Self.events(at: at)))
        #expect(bodyText(next) == "ok")
        #expect(try count(fixture, "recording_packets", app: app.appId) == 2)
        let owner = try fixture.apps.tenants.ownerConnection()
        let session = try owner.query("""
            SELECT install_hash, secret_hash, platform FROM recording_sessions WHERE app_id = $1::uuid
            """, [.text(app.appId)]).rows
        #expect(session.count == 1)
        #expect(try session[0].string("install_hash").count == 64 && session[0].string("install_hash") != "I-4F2A")
        #expect(try session[0].string("secret_hash")
                == Hex.encode(SHA256.hash(Array("session-secret-0123456789".utf8))))
        let packet = try owner.query("""
            SELECT event_count, screen, convert_from(events, 'UTF8') AS events FROM recording_packets
            WHERE app_id = $1::uuid AND seq = 0
            """, [.text(app.appId)]).rows[0]
        #expect(try packet.string("event_count") == "4" && packet.string("screen") == "Home")
        // Screenshots are off by default: the bytes are dropped, the wireframe and the hash reference stay.
        let stored = try packet.string("events")
        #expect(!stored.contains(Data(Self.image).base64EncodedString()) && stored.contains(Self.imageSha))
        #expect(stored.contains(#""type":2"#))
        #expect(try count(fixture, "recording_assets", app: app.appId) == 0)
    }

    @Test func screenshotsAreKeptOncePerHashOnlyWhileTheSettingIsOn() throws {
        let fixture = try IngestFixture.migrated()
        let app = try recordingApp(fixture, ["--recording-screenshots", "on"])
        let at = now
        #expect(bodyText(fixture.recording(try packet(Self.header(key: app.key, at: at),
                                                      Self.events(at: at)))) == "ok")
        #expect(bodyText(fixture.recording(try packet(Self.header(key: app.key, sid: "S-2", at: at),
                                                      Self.events(at: at)))) == "ok")
        // Sent once per hash: a later packet refers to it without the bytes.
        #expect(bodyText(fixture.recording(try packet(Self.header(key: app.key, seq: 1, at: at),
                                                      Self.events(at: at, shot: false)))) == "ok")
        let assets = try fixture.apps.tenants.ownerConnection().query(
            "SELECT sha256, mime, bytes FROM recording_assets WHERE app_id = $1::uuid", [.text(app.appId)]).rows
        #expect(assets.count == 1)
        #expect(try assets[0].string("sha256") == Self.imageSha && assets[0].string("mime") == "image/png")
        #expect(assets[0].bytes("bytes") == Self.image)
        let stored = try fixture.apps.tenants.ownerConnection().query(
            "SELECT string_agg(convert_from(events, 'UTF8'), '') AS t FROM recording_packets WHERE app_id = $1::uuid",
            [.text(app.appId)]).rows[0].string("t")
        #expect(!stored.contains(Data(Self.image).base64EncodedString()))
        // A hash that is not the image's is refused.
        let wrong = fixture.recording(try packet(Self.header(key: app.key, seq: 2, at: at),
                                                 Self.events(at: at, sha: String(repeating: "ab", count: 32))))
        #expect(wrong.status == 400)
        #expect(bodyText(wrong)
                == #"{"ok":false,"code":"invalid","detail":"events[2].data.payload.sha is not the SHA-256 of data"}"#)
    }

    @Test func withoutConsentOrWithRecordingOffTheAnswerIsOffAndNothingIsStored() throws {
        let fixture = try IngestFixture.migrated()
        let off = try fixture.app()
        let at = now
        #expect(bodyText(fixture.recording(try packet(Self.header(key: off.key, at: at),
                                                      Self.events(at: at)))) == "off")
        let app = try recordingApp(fixture, [], tenant: off.tenant, bundleId: "com.example.Second")
        for cs in ["gd", "dg", "gp", "px", "xx"] {
            let answer = fixture.recording(try packet(Self.header(key: app.key, bid: "com.example.Second", cs: cs,
                                                                  at: at), Self.events(at: at)))
            #expect(answer.status == 200 && bodyText(answer) == "off", "cs \(cs)")
        }
        let bad = fixture.recording(try packet(Self.header(key: app.key, bid: "com.example.Second", cs: "gggg",
                                                           at: at), Self.events(at: at)))
        #expect(bodyText(bad) == #"{"ok":false,"code":"invalid","detail":"cs must be 2 characters of g, d, p, x"}"#)
        #expect(try count(fixture, "recording_packets", app: app.appId) == 0)
        #expect(try count(fixture, "recording_packets", app: off.appId) == 0)
    }

    @Test func aHealthAppRecordsOnlyOptInConsentAndNeverKeepsScreenshots() throws {
        let fixture = try IngestFixture.migrated()
        let app = try recordingApp(fixture, ["--recording-health", "on", "--recording-screenshots", "on"])
        let at = now
        for cm in ["always", "opt_out"] {
            #expect(bodyText(fixture.recording(try packet(Self.header(key: app.key, cm: cm, at: at),
                                                          Self.events(at: at)))) == "off", "cm \(cm)")
        }
        #expect(bodyText(fixture.recording(try packet(Self.header(key: app.key, cm: "opt_in", at: at),
                                                      Self.events(at: at)))) == "ok")
        #expect(try count(fixture, "recording_packets", app: app.appId) == 1)
        #expect(try count(fixture, "recording_assets", app: app.appId) == 0)
    }

    @Test func anExcludedScreenIs422PageExcluded() throws {
        let fixture = try IngestFixture.migrated()
        let app = try recordingApp(fixture, ["--recording-exclude-screens", "Checkout*,Settings"])
        let at = now
        let refused = fixture.recording(try packet(Self.header(key: app.key, scr: "CheckoutCard", at: at),
                                                   Self.events(at: at)))
        #expect(refused.status == 422)
        #expect(bodyText(refused) == #"{"ok":false,"code":"page_excluded"}"#)
        #expect(bodyText(fixture.recording(try packet(Self.header(key: app.key, scr: "Home", at: at),
                                                      Self.events(at: at)))) == "ok")
    }

    @Test func framingErrorsNameThePartAndBombsAre413() throws {
        let fixture = try IngestFixture.migrated()
        let app = try recordingApp(fixture)
        let at = now
        let header = Array(Self.header(key: app.key, at: at).utf8)
        let events = try gzip(Array(Self.events(at: at).utf8))
        func detail(_ body: [UInt8]) -> String? {
            let answer = fixture.recording(body)
            guard answer.status == 400 else { return "status \(answer.status)" }
            return jsonObject(answer)["detail"] as? String
        }
        #expect(detail(Array("X3R2".utf8) + Array(RecordingFrame.join(header: header, events: events).dropFirst(4)))
                == "packet must start with X3R1")
        #expect(detail(Array(RecordingFrame.join(header: header, events: events).prefix(8 + header.count - 1)))
                == "header length is past the packet's end")
        #expect(detail(RecordingFrame.magic + [0, 1, 0, 0] + header) == "header length must be 2 to 4096")
        #expect(detail(RecordingFrame.join(header: header, events: [])) == "events are missing after the header")
        #expect(detail(RecordingFrame.join(header: Array("[1]".utf8), events: events))
                == "header is not a JSON object")
        #expect(detail(RecordingFrame.join(header: header, events: Array(Self.events(at: at).utf8)))
                == "events are not valid gzip")
        #expect(detail(try packet(Self.header(key: app.key, sec: "short", at: at), Self.events(at: at)))
                == "sec must be 16 to 128 bytes of text")
        #expect(detail(try packet(Self.header(key: app.key, at: at), "{\"type\":4}\n"))
                == "events[0].timestamp is required")
        let many = String(repeating: #"{"type":3,"data":{},"timestamp":1}"# + "\n", count: 2001)
        #expect(detail(try packet(Self.header(key: app.key, at: at), many))
                == "events: more than 2000 events in one packet")
        // 3 MiB of one line inflated from a few KiB: refused once past 2 MiB, never held whole.
        let zeros = try Shell.run(["python3", "-c", "import base64, gzip, sys; "
                                   + "sys.stdout.write(base64.b64encode(gzip.compress(b'0' * 3145728)).decode())"])
        let deflated = try #require(Data(base64Encoded: zeros.trimmingCharacters(in: .whitespacesAndNewlines)))
        let bomb = fixture.recording(RecordingFrame.join(header: header, events: Array(deflated)))
        #expect(bomb.status == 413)
        #expect(bodyText(bomb) == #"{"ok":false,"code":"too_large"}"#)
        // The server refuses a body over the route's limit before the handler runs, in the compact shape.
        #expect(fixture.api.bodyLimit(for: .post, path: "/v1/m/r") == 524_288)
        let wire = fixture.api.payloadTooLarge(Request(method: .post, path: "/v1/m/r", query: [:],
                                                       headers: Headers([]), body: [], clientIP: "198.51.100.74"))
        #expect(wire.status == 413)
        #expect(bodyText(wire) == #"{"ok":false,"code":"too_large"}"#)
        #expect(try count(fixture, "recording_packets", app: app.appId) == 0)
    }

    @Test func anUnknownKeyOrAnotherOrgsAppIsRefused() throws {
        let fixture = try IngestFixture.migrated()
        let app = try recordingApp(fixture)
        let other = try fixture.app(platform: "android", bundleId: "com.example.other")
        _ = try fixture.admin(["ingest-settings", "--app", other.appId, "--recording", "on"])
        let at = now
        let unknown = fixture.recording(try packet(Self.header(key: "pk_3x_" + String(repeating: "A", count: 32),
                                                               at: at), Self.events(at: at)))
        #expect(unknown.status == 403)
        #expect(bodyText(unknown) == #"{"ok":false,"code":"key"}"#)
        // The key of one org's app with another org's app's platform and package name.
        let mismatch = fixture.recording(try packet(Self.header(key: app.key, plat: "android",
                                                                bid: "com.example.other", at: at),
                                                    Self.events(at: at)))
        #expect(mismatch.status == 403)
        #expect(bodyText(mismatch) == #"{"ok":false,"code":"app_mismatch"}"#)
        #expect(try count(fixture, "recording_packets", app: other.appId) == 0)
        #expect(try count(fixture, "recording_packets", app: app.appId) == 0)
    }

    @Test func overThePerIPLimitIs429WithRetryAfter() throws {
        let fixture = try IngestFixture.migrated(ingestRecordingLimit: TestIdentity.uniqueLimit(count: 2))
        let app = try recordingApp(fixture)
        let at = now
        for seq in 0..<2 {
            #expect(bodyText(fixture.recording(try packet(Self.header(key: app.key, seq: seq, at: at),
                                                          Self.events(at: at)))) == "ok")
        }
        let limited = fixture.recording(try packet(Self.header(key: app.key, seq: 2, at: at), Self.events(at: at)))
        #expect(limited.status == 429)
        let retryAfter = try #require(limited.headers["Retry-After"])
        #expect(bodyText(limited) == #"{"ok":false,"code":"rate_limited","retryAfter":\#(retryAfter)}"#)
    }

    @Test func aDeviceErasureDeletesTheInstallsSessionsAndPacketsOnly() throws {
        let fixture = try IngestFixture.migrated()
        let app = try recordingApp(fixture)
        let at = now
        for (sid, ins) in [("S-1", "I-4F2A"), ("S-2", "I-4F2A"), ("S-3", "I-OTHER")] {
            #expect(bodyText(fixture.recording(try packet(Self.header(key: app.key, ins: ins, sid: sid, at: at),
                                                          Self.events(at: at)))) == "ok")
        }
        let owner = try fixture.apps.tenants.ownerConnection()
        let installHash = try owner.query(
            "SELECT install_hash FROM recording_sessions WHERE app_id = $1::uuid AND session_id = 'S-1'",
            [.text(app.appId)]).rows[0].string("install_hash")
        let store = RecordingStore(pool: Pool(configuration: PostgresConfiguration(
            url: fixture.apps.tenants.database.appURL, poolSize: 1)))
        let org = try OrgID.parse(app.tenant.org).get()
        let appId = try AppID.parse(app.appId).get()
        #expect(try store.erase(org: org, appId: appId, installHash: installHash) == 2)
        let left = try owner.query("SELECT session_id FROM recording_packets WHERE app_id = $1::uuid",
                                   [.text(app.appId)]).rows.map { try $0.string("session_id") }
        #expect(left == ["S-3"])
        #expect(try count(fixture, "recording_sessions", app: app.appId) == 1)
        // Another org's scope deletes nothing.
        let stranger = try OrgID.parse(try fixture.apps.tenants.tenant().org).get()
        let otherHash = try owner.query(
            "SELECT install_hash FROM recording_sessions WHERE app_id = $1::uuid", [.text(app.appId)]).rows[0]
            .string("install_hash")
        #expect(try store.erase(org: stranger, appId: appId, installHash: otherHash) == 0)
        #expect(try count(fixture, "recording_packets", app: app.appId) == 1)
    }
}
