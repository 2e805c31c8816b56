import API
import Commands
import Domain
import Foundation
import HTTPServer
import Testing
import TestSupport

/// `GET /s2s/v1/apps/{appId}/recordings?sessionId=` (issue 21): a session's packets by `seq` with their rrweb events,
/// paged; the refusals; another org's app is 404.
@Suite struct RecordingListTests {
    private func list(_ fixture: IngestFixture, _ app: IngestFixture.App, key: String? = nil,
                      _ query: [String: String]) -> Response {
        fixture.api.respond(to: Request(method: .get, path: "/s2s/v1/apps/\(app.appId)/recordings", query: query,
                                        headers: Headers([("Authorization", "Bearer " + (key ?? app.tenant.key))]),
                                        clientIP: "203.0.113.7", remoteAddress: "203.0.113.7"))
    }

    private func gzip(_ text: String) throws -> [UInt8] {
        let script = "import base64, gzip, sys; sys.stdout.write(base64.b64encode(gzip.compress("
            + "base64.b64decode(sys.argv[1]))).decode())"
        let output = try Shell.run(["python3", "-c", script, Data(text.utf8).base64EncodedString()])
        return Array(try #require(Data(base64Encoded: output.trimmingCharacters(in: .whitespacesAndNewlines))))
    }

    @Test func aSessionsPacketsAreListedBySeqWithTheirEventsAndPaged() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        #expect(try fixture.admin(["ingest-settings", "--app", app.appId, "--recording", "on"]).status == .exited(0))
        let at = Int(Date().timeIntervalSince1970 * 1000)
        for seq in [1, 0, 2] {
            let packet = RecordingFrame.join(
                header: Array(RecordingPacketTests.header(key: app.key, seq: seq, at: at).utf8),
                events: try gzip(RecordingPacketTests.events(at: at)))
            #expect(bodyText(fixture.recording(packet)) == "ok")
        }
        let first = list(fixture, app, ["sessionId": "S-1", "limit": "2"])
        #expect(first.status == 200)
        let page = jsonObject(first)
        #expect(page["sessionId"] as? String == "S-1" && page["nextAfter"] as? Int == 1)
        let packets = try #require(page["packets"] as? [[String: Any]])
        #expect(packets.map { $0["seq"] as? Int } == [0, 1])
        #expect(packets[0]["screen"] as? String == "Home" && packets[0]["eventCount"] as? Int == 4)
        let events = try #require(packets[0]["events"] as? [[String: Any]])
        #expect(events.map { $0["type"] as? Int } == [4, 2, 5, 3])
        let rest = jsonObject(list(fixture, app, ["sessionId": "S-1", "after": "1"]))
        #expect((rest["packets"] as? [[String: Any]])?.map { $0["seq"] as? Int } == [2])
        #expect(rest["nextAfter"] is NSNull)
        let unknown = jsonObject(list(fixture, app, ["sessionId": "S-9"]))
        #expect((unknown["packets"] as? [Any])?.isEmpty == true)
    }

    @Test func aMissingSessionIdIs400AndAnotherOrgsAppIs404() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let missing = list(fixture, app, [:])
        #expect(missing.status == 400)
        #expect(bodyText(missing).contains("sessionId"))
        let badLimit = list(fixture, app, ["sessionId": "S-1", "limit": "201"])
        #expect(badLimit.status == 400 && bodyText(badLimit).contains("limit"))
        let stranger = try fixture.apps.tenants.tenant()
        let foreign = list(fixture, app, key: stranger.key, ["sessionId": "S-1"])
        #expect(foreign.status == 404)
        #expect(jsonObject(foreign)["code"] as? String == "NOT_FOUND")
    }
}
