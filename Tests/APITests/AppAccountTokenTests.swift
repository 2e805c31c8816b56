import API
import Commands
import Domain
import Foundation
import HTTPServer
import Testing
import TestSupport

/// `POST /public/app-account-token` (issue 14): the same UUID for the same (org, guid), random, minted once.
@Suite struct AppAccountTokenTests {
    private func token(_ response: Response) -> String? {
        (jsonObject(response)["data"] as? [String: Any])?["appAccountToken"] as? String
    }

    @Test func theSameGuidGetsTheSameTokenEveryTimeAndAnotherGuidAnother() throws {
        let fixture = try AppFixture.migrated()
        let tenant = try fixture.tenants.tenant()
        let first = fixture.mintToken(projectId: tenant.project, guid: "ABC-device")
        #expect(first.status == 200)
        let value = try #require(token(first))
        #expect(bodyText(first) == #"{"success":true,"data":{"appAccountToken":"\#(value)"}}"#)
        #expect(UUID(uuidString: value) != nil && value == value.lowercased())
        #expect(token(fixture.mintToken(projectId: tenant.project, guid: "ABC-device")) == value)
        // Guids are exact: another spelling is another buyer.
        #expect(token(fixture.mintToken(projectId: tenant.project, guid: "abc-device")) != value)
        // Another project of the same organization answers the same token.
        let sibling = try fixture.tenants.admin(["project", "create", "--org", tenant.org, "--name", "Sibling"]).json()
        let siblingProject = try #require(sibling["projectId"] as? String)
        #expect(token(fixture.mintToken(projectId: siblingProject, guid: "ABC-device")) == value)
        // The token names its buyer for store intake, in this org only.
        let org = try OrgID.parse(tenant.org).get()
        #expect(try fixture.model.lookup.appAccountTokenOwner(org: org, token: try #require(UUID(uuidString: value)))
            == BuyerGuid.parse("ABC-device").get())
        let other = try OrgID.parse(try fixture.tenants.tenant().org).get()
        #expect(try fixture.model.lookup.appAccountTokenOwner(org: other, token: try #require(UUID(uuidString: value)))
            == nil)
    }

    @Test func concurrentFirstRequestsMintOneToken() throws {
        let fixture = try AppFixture.migrated()
        let tenant = try fixture.tenants.tenant()
        let answers = Answers()
        onThreads(10) { index in
            let response = fixture.mintToken(projectId: tenant.project, guid: "racer",
                                             clientIP: "198.51.100.\(index)")
            answers.add(response.status, token(response) ?? "")
        }
        #expect(answers.statuses == Array(repeating: 200, count: 10) && answers.guids.count == 1)
        let owner = try fixture.tenants.ownerConnection()
        #expect(try owner.query("SELECT count(*) AS n FROM events WHERE event_type = 'AppAccountTokenMinted'")
            .rows[0].int("n") == 1)
    }

    @Test func aForeignGuidAnUnknownProjectAndBadFieldsAreRefused() throws {
        let fixture = try AppFixture.migrated()
        let a = try fixture.tenants.tenant()
        let b = try fixture.tenants.tenant()
        // A buyer of org A (recorded by a payment) is foreign to org B.
        let paid = fixture.api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: a.key,
                                                       body: PaymentTests.body(guid: "buyer-of-a")))
        #expect(paid.status == 200)
        let foreign = fixture.mintToken(projectId: b.project, guid: "buyer-of-a")
        #expect(foreign.status == 400)
        #expect(bodyText(foreign) == #"{"statusCode":400,"code":"VISITOR_ID_FOREIGN_PROJECT","# +
            #""message":"field 'guid' names a buyer of another organization"}"#)
        #expect(token(fixture.mintToken(projectId: a.project, guid: "buyer-of-a")) != nil)
        let unknown = fixture.mintToken(projectId: UUID().uuidString.lowercased(), guid: "g")
        #expect(unknown.status == 404)
        #expect(bodyText(unknown) == #"{"statusCode":404,"message":"no project has this projectId"}"#)
        let badGuid = fixture.mintToken(projectId: a.project, guid: "00000000-0000-0000-0000-000000000000")
        #expect(badGuid.status == 400 && bodyText(badGuid).contains("VALIDATION_GUID_FORMAT"))
        let badProject = fixture.mintToken(projectId: "p", guid: "g")
        #expect(badProject.status == 400 && bodyText(badProject).contains("VALIDATION_PROJECT_ID_FORMAT"))
        let owner = try fixture.tenants.ownerConnection()
        #expect(try owner.query("SELECT count(*) AS n FROM app_account_tokens WHERE org_id = $1::uuid",
                                [.text(b.org)]).rows[0].int("n") == 0)
    }

    @Test func thirtyPerMinutePerClientAddress() throws {
        let limit = TestIdentity.uniqueLimit(count: 30)
        let fixture = try AppFixture.migrated(appAccountTokenLimit: limit)
        let tenant = try fixture.tenants.tenant()
        for index in 0..<30 {
            #expect(fixture.mintToken(projectId: tenant.project, guid: "g\(index)", clientIP: "192.0.2.61").status
                == 200)
        }
        let over = fixture.mintToken(projectId: tenant.project, guid: "g", clientIP: "192.0.2.61")
        #expect(over.status == 429 && over.headers["Retry-After"] != nil)
        #expect(fixture.mintToken(projectId: tenant.project, guid: "g", clientIP: "192.0.2.62").status == 200)
        #expect(Environment.defaultAppAccountTokenLimit == RateLimit.perWindow(
            name: "app-account-token", count: 30, seconds: 60, onFailure: .closed))
    }
}
