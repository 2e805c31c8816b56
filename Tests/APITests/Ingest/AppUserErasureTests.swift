import API
import Commands
import Crypto
import Domain
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport

/// `POST /v1/projects/{project}/app-users/erase` (issue 20): the project's server erases a user's installs, found by
/// the account tokens their batches carried, hashed as the SDK hashes them; only the key's own project.
@Suite struct AppUserErasureTests {
    private static func sha(_ text: String) -> String { Hex.encode(SHA256.hash(Array(text.utf8))) }

    private func erase(_ fixture: IngestFixture, project: String, key: String, _ body: String) -> Response {
        fixture.api.respond(to: s2sRequest(.post, "/v1/projects/\(project)/app-users/erase", key: key, body: body))
    }

    private func identify(_ fixture: IngestFixture, _ app: IngestFixture.App, inst: String, _ identity: String) {
        #expect(fixture.batch(IngestIdentityTests.batch(app.key, inst: inst, identity: identity)).status == 200)
    }

    @Test func aUserIsErasedByUserIdOrByEmailAsTheSDKHashesIt() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let second = try fixture.app(platform: "android", bundleId: "com.example.reader", tenant: app.tenant)
        identify(fixture, app, inst: "A", #""xid":"\#(Self.sha("user-42"))""#)
        identify(fixture, app, inst: "B", #""em":"\#(Self.sha("ada.l+news@gmail.com"))""#)
        identify(fixture, app, inst: "C", #""emg":"\#(Self.sha("adal@gmail.com"))""#)
        identify(fixture, app, inst: "D", #""xid":"\#(Self.sha("user-43"))""#)
        // The same user in another app of the project (batches of an Android app).
        let android = IngestIdentityTests.batch(second.key, inst: "E", identity: #""xid":"\#(Self.sha("user-42"))""#)
        let sent = String(decoding: android, as: UTF8.self)
            .replacingOccurrences(of: #""plat":"ios","bid":"com.example.Reader""#,
                                  with: #""plat":"android","bid":"com.example.reader""#)
        #expect(fixture.batch(Array(sent.utf8), userAgent: "X3Android/2.0.1 (Android 14)").status == 200)
        let byId = erase(fixture, project: app.tenant.project, key: app.tenant.key, #"{"userId":"user-42"}"#)
        #expect(byId.status == 202)
        let answer = jsonObject(byId)
        #expect(answer["installs"] as? Int == 2 && (answer["erasureId"] as? String)?.count == 36)
        #expect(try IngestEraseTests.counts(fixture, app: app.appId, inst: "A") == [0, 0, 0, 0, 0, 0])
        #expect(try IngestEraseTests.counts(fixture, app: second.appId, inst: "E") == [0, 0, 0, 0, 0, 0])
        let byEmail = erase(fixture, project: app.tenant.project, key: app.tenant.key,
                            #"{"email":"Ada.L+news@GMail.com"}"#)
        #expect(byEmail.status == 202 && jsonObject(byEmail)["installs"] as? Int == 2)
        for inst in ["B", "C"] {
            #expect(try IngestEraseTests.counts(fixture, app: app.appId, inst: inst) == [0, 0, 0, 0, 0, 0])
        }
        #expect(try IngestEraseTests.counts(fixture, app: app.appId, inst: "D") == [1, 2, 1, 1, 1, 0])
        let events = try fixture.apps.tenants.ownerConnection().query("""
            SELECT data->>'origin' AS origin, data->>'erasureId' AS id FROM events
            WHERE event_type = 'AppInstallErased' AND data->>'appId' = $1 ORDER BY global_pos
            """, [.text(app.appId)]).rows
        #expect(try events.map { try $0.string("origin") } == ["server", "server", "server"])
        let ids = [answer["erasureId"], jsonObject(byEmail)["erasureId"], jsonObject(byEmail)["erasureId"]]
        #expect(try events.map { try $0.string("id") } == ids.compactMap { $0 as? String })
        // A user with no installs: 202 with none.
        let nobody = erase(fixture, project: app.tenant.project, key: app.tenant.key, #"{"userId":"user-42"}"#)
        #expect(nobody.status == 202 && jsonObject(nobody)["installs"] as? Int == 0)
    }

    @Test func anotherOrgsProjectOrKeyErasesNothing() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let foreign = try fixture.app()
        identify(fixture, app, inst: "A", #""xid":"\#(Self.sha("user-42"))""#)
        let otherProject = erase(fixture, project: foreign.tenant.project, key: app.tenant.key,
                                 #"{"userId":"user-42"}"#)
        #expect(otherProject.status == 404 && jsonObject(otherProject)["code"] as? String == "NOT_FOUND")
        let otherKey = erase(fixture, project: app.tenant.project, key: foreign.tenant.key, #"{"userId":"user-42"}"#)
        #expect(otherKey.status == 404)
        let ownProjectOtherOrg = erase(fixture, project: foreign.tenant.project, key: foreign.tenant.key,
                                       #"{"userId":"user-42"}"#)
        #expect(ownProjectOtherOrg.status == 202 && jsonObject(ownProjectOtherOrg)["installs"] as? Int == 0)
        #expect(try IngestEraseTests.counts(fixture, app: app.appId, inst: "A") == [1, 2, 1, 1, 1, 0])
        #expect(erase(fixture, project: app.tenant.project, key: "", #"{"userId":"user-42"}"#).status == 401)
    }

    @Test func refusalsNameTheField() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let project = app.tenant.project
        let cases: [(String, String, String, String)] = [
            (project, "{}", "VALIDATION_FAILED", "field 'userId' or field 'email' is required"),
            (project, #"{"userId":"u","phone":"1"}"#, "VALIDATION_FAILED", "phone"),
            (project, #"{"email":"not-an-address"}"#, "VALIDATION_EMAIL_FORMAT", "email"),
            (project, #"{"userId":" padded"}"#, "VALIDATION_EXTERNAL_ID_FORMAT", "userId"),
            ("not-a-uuid", #"{"userId":"u"}"#, "VALIDATION_PROJECT_ID_FORMAT", "project"),
        ]
        for (path, body, code, field) in cases {
            let response = erase(fixture, project: path, key: app.tenant.key, body)
            let answer = jsonObject(response)
            #expect(response.status == 400 && answer["code"] as? String == code, "\(body)")
            #expect((answer["message"] as? String)?.contains(field) == true, "\(body): \(answer)")
        }
    }
}
