import API
import Domain
import Foundation
import HTTPServer
import Testing
import TestSupport

/// "Sessions end after 30 minutes without activity" (issue 20): a `sid` sent again after more than the app's
/// `session.timeoutMs` without activity is a second session in the sessions read and the export; events stay
/// deduplicated by session id and `n`.
@Suite struct IngestSessionTimeoutTests {
    /// 2027-01-15T08:00:00Z: the batches of a test land on one UTC day, whatever the gaps.
    private static let start = Date(timeIntervalSince1970: 1_800_000_000)
    private static let day = "2027-01-15"

    /// A fixture whose server clock the test moves.
    private func fixture() throws -> (IngestFixture, Clock) {
        let clock = Clock()
        clock.advance(Self.start.timeIntervalSince(clock.now()))
        return (try IngestFixture.migrated(clock: { clock.now() }), clock)
    }

    /// A batch of session `S-1` sent at the server clock's now (the device clock right), events `n` 1 and 2.
    private func send(_ fixture: IngestFixture, _ app: IngestFixture.App, at now: Date) throws {
        let body = IngestBatchTests.batch(key: app.key, now: now)
        let response = fixture.batch(Array(body.utf8))
        #expect(response.status == 200 && jsonObject(response)["stored"] as? Bool == true, "\(bodyText(response))")
    }

    private func sessionsRead(_ fixture: IngestFixture, _ app: IngestFixture.App) -> Response {
        fixture.api.respond(to: Request(
            method: .get, path: "/s2s/v1/apps/\(app.appId)/sessions",
            query: ["from": "\(Self.day)T00:00:00Z", "to": "2027-01-16T00:00:00Z"],
            headers: Headers([("Authorization", "Bearer " + app.tenant.key)]), body: [], clientIP: "203.0.113.7",
            remoteAddress: "203.0.113.7"))
    }

    /// The session lines of the day's export: part, startedAt, lastSeenAt, batches.
    private func exportedSessions(_ fixture: IngestFixture, _ app: IngestFixture.App) throws -> [[String]] {
        let response = fixture.api.respond(to: Request(
            method: .get, path: "/s2s/v1/apps/\(app.appId)/export", query: ["day": Self.day],
            headers: Headers([("Authorization", "Bearer " + app.tenant.key)]), body: [], clientIP: "203.0.113.7",
            remoteAddress: "203.0.113.7"))
        let text = String(decoding: try response.stream?.drain() ?? response.body, as: UTF8.self)
        return try text.split(separator: "\n").compactMap { line in
            let row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard row["type"] as? String == "session" else { return nil }
            return ["\(row["part"] ?? "-")", "\(row["startedAt"] ?? "-")", "\(row["lastSeenAt"] ?? "-")",
                    "\(row["batches"] ?? "-")"]
        }
    }

    @Test func theSameSidFortyMinutesLaterIsASecondSessionAndItsEventsAreStoredOnce() throws {
        let (fixture, clock) = try fixture()
        let app = try fixture.app()
        try send(fixture, app, at: clock.now())
        clock.advance(40 * 60)
        try send(fixture, app, at: clock.now())
        let response = sessionsRead(fixture, app)
        #expect(response.status == 200)
        #expect(bodyText(response) == #"{"appId":"\#(app.appId)","days":[{"day":"\#(Self.day)","events":2,"#
            + #""installs":1,"screens":1,"sessions":2}],"from":"\#(Self.day)T00:00:00.000Z","#
            + #""to":"2027-01-16T00:00:00.000Z"}"#)
        // Each session's own activity: the first ended at 08:00, the second began 40 minutes later (each batch's
        // first event 30 seconds before it was sent).
        #expect(try exportedSessions(fixture, app) == [
            ["0", "2027-01-15T07:59:30.000Z", "2027-01-15T08:00:00.000Z", "1"],
            ["1", "2027-01-15T08:39:30.000Z", "2027-01-15T08:40:00.000Z", "1"],
        ])
    }

    @Test func theSameSidTenMinutesLaterIsTheSameSession() throws {
        let (fixture, clock) = try fixture()
        let app = try fixture.app()
        try send(fixture, app, at: clock.now())
        clock.advance(10 * 60)
        try send(fixture, app, at: clock.now())
        let days = try #require(jsonObject(sessionsRead(fixture, app))["days"] as? [[String: Any]])
        #expect(days.count == 1 && days.first?["sessions"] as? Int == 1 && days.first?["installs"] as? Int == 1)
        #expect(try exportedSessions(fixture, app) == [
            ["0", "2027-01-15T07:59:30.000Z", "2027-01-15T08:10:00.000Z", "2"],
        ])
    }

    @Test func theAppsOwnTimeoutDecides() throws {
        let (fixture, clock) = try fixture()
        let app = try fixture.app()
        // An hour: 40 minutes apart is one session.
        #expect(try fixture.admin(["ingest-settings", "--app", app.appId, "--session-timeout-ms", "3600000"])
            .status == .exited(0))
        try send(fixture, app, at: clock.now())
        clock.advance(40 * 60)
        try send(fixture, app, at: clock.now())
        #expect(try exportedSessions(fixture, app).map { $0[0] } == ["0"])
        // Five minutes: 10 minutes later is a new session.
        #expect(try fixture.admin(["ingest-settings", "--app", app.appId, "--session-timeout-ms", "300000"])
            .status == .exited(0))
        clock.advance(10 * 60)
        try send(fixture, app, at: clock.now())
        #expect(try exportedSessions(fixture, app).map { $0[0] + "/" + $0[3] } == ["0/2", "1/1"])
        let days = try #require(jsonObject(sessionsRead(fixture, app))["days"] as? [[String: Any]])
        #expect(days.first?["sessions"] as? Int == 2)
    }
}
