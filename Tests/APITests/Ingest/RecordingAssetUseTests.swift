import API
import Domain
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport

/// Issue 21, recordings' retention: a packet that names a stored screenshot — with its bytes or by its hash alone —
/// moves the screenshot's last use, so the retention keeps what recent packets show.
@Suite struct RecordingAssetUseTests {
    private func packet(_ header: String, _ events: String) throws -> [UInt8] {
        let script = "import base64, gzip, sys; sys.stdout.write(base64.b64encode(gzip.compress("
            + "base64.b64decode(sys.argv[1]))).decode())"
        let output = try Shell.run(["python3", "-c", script, Data(events.utf8).base64EncodedString()])
        let gzipped = try #require(Data(base64Encoded: output.trimmingCharacters(in: .whitespacesAndNewlines)))
        return RecordingFrame.join(header: Array(header.utf8), events: Array(gzipped))
    }

    @Test func aPacketReferringToAScreenshotByHashMovesItsLastUse() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app(bundleId: "com.example.Reader")
        #expect(try fixture.admin(["ingest-settings", "--app", app.appId, "--recording", "on",
                                   "--recording-screenshots", "on"]).status == .exited(0))
        let at = Int(Date().timeIntervalSince1970 * 1000)
        let first = try packet(RecordingPacketTests.header(key: app.key, at: at), RecordingPacketTests.events(at: at))
        #expect(bodyText(fixture.recording(first)) == "ok")
        let owner = try fixture.apps.tenants.ownerConnection()
        func daysSinceUse() throws -> Double {
            Double(try owner.query("""
                SELECT extract(epoch FROM now() - last_used_at) / 86400 AS d FROM recording_assets
                WHERE app_id = $1::uuid
                """, [.text(app.appId)]).rows[0].string("d")) ?? -1
        }
        #expect(try daysSinceUse() < 0.01)
        try owner.query("""
            UPDATE recording_assets SET last_used_at = now() - interval '40 days' WHERE app_id = $1::uuid
            """, [.text(app.appId)])
        #expect(try daysSinceUse() > 39)
        let reference = try packet(RecordingPacketTests.header(key: app.key, seq: 1, at: at),
                                   RecordingPacketTests.events(at: at, shot: false))
        #expect(bodyText(fixture.recording(reference)) == "ok")
        #expect(try daysSinceUse() < 0.01)
    }
}
