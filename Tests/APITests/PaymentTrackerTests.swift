import API
import Domain
import Foundation
import HTTPServer
import Testing
import TestSupport

/// The tracker deep links in `POST /s2s/v1/payments` and the `adj_t` rule when a project is configured (issue 5).
@Suite struct PaymentTrackerTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000.25)
    static let adjTMessage = "field 'trackerLink' must carry its own adj_t parameter: an Adjust *.go.link or *.adj.st "
        + "link without it answers 404"

    private func pay(_ api: APIResponder, key: String, _ body: String) -> Response {
        api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: key, body: body))
    }

    @Test func aPaymentInAnAppsFlyerProjectAnswersTheAppAndTheStoreVariant() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant(["--return-scheme", "myapp", "--tracker", "appsflyer",
                                         "--tracker-link", "https://myapp.onelink.me/AbCd?pid=web#top"])
        let api = try fixture.responder(clock: { Self.now }, publicBaseURL: "https://handoff.example.com")
        let response = pay(api, key: tenant.key, PaymentTests.body(extra: #","paywallId":"pw:1""#))
        #expect(response.status == 200, "\(bodyText(response))")
        let json = jsonObject(response)
        let handoff = try #require(json["handoff"] as? [String: Any])
        let install = try #require(json["install"] as? [String: Any])
        let code = try #require(handoff["code"] as? String)
        let token = try #require(install["token"] as? String)
        let pageURL = try #require(handoff["postPaymentUrl"] as? String)
        let pageToken = try #require(handoff["pageToken"] as? String)
        #expect(pageURL.hasSuffix("/done/" + pageToken))
        let tracker = "https://myapp.onelink.me/AbCd?pid=web&deep_link_value=handoff&deep_link_sub1=\(token)"
            + "&af_sub1=\(token)&deep_link_sub2=pw%3A1&deep_link_sub3=\(tenant.project)&deep_link_sub4="
        #expect(bodyText(response) == #"{"guid":"\#(PaymentTests.guidA)","handoff":{"code":"\#(code)","# +
            #""expiresAt":"2027-01-18T08:00:00.250Z","pageToken":"\#(pageToken)","postPaymentUrl":"\#(pageURL)","# +
            #""returnLink":"myapp://handoff?code=\#(code)","trackerUrl":"\#(tracker)app#top"},"# +
            #""install":{"expiresAt":"2027-02-14T08:00:00.250Z","playStoreUrl":null,"token":"\#(token)","# +
            #""trackerUrl":"\#(tracker)store#top"},"paymentId":"pi_1"}"#)
        // The word, never the token, is the deep link value; a repeat answers the same links.
        #expect(!bodyText(response).contains("deep_link_value=\(token)"))
        #expect(bodyText(pay(api, key: tenant.key, PaymentTests.body(extra: #","paywallId":"pw:1""#)))
            == bodyText(response))
    }

    @Test func aPaymentInAClassicAdjustProjectCarriesADeepLinkBackIntoTheApp() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant(["--return-scheme", "myapp", "--tracker", "adjust",
                                         "--tracker-link", "https://app.adjust.com/abc123?campaign=web"])
        let api = try fixture.responder(clock: { Self.now })
        let response = pay(api, key: tenant.key, PaymentTests.body())
        #expect(response.status == 200, "\(bodyText(response))")
        let json = jsonObject(response)
        let token = try #require((json["install"] as? [String: Any])?["token"] as? String)
        func expected(_ destination: String) -> String {
            "https://app.adjust.com/abc123?campaign=web&user_id=\(token)&adj_label=\(token)"
                + "&deep_link=myapp%3A%2F%2Fhandoff%3Fuser_id%3D\(token)%26project_id%3D\(tenant.project)"
                + "%26destination%3D\(destination)"
        }
        #expect((json["handoff"] as? [String: Any])?["trackerUrl"] as? String == expected("app"))
        #expect((json["install"] as? [String: Any])?["trackerUrl"] as? String == expected("store"))
    }

    @Test func anotherOrgsPaymentHasNoTrackerURLsAndCannotReadOrChangeTheTrackedProject() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant(["--tracker", "adjust", "--tracker-link", "https://myapp.go.link/h?adj_t=abc123"])
        let b = try fixture.tenant()
        let api = try fixture.responder(clock: { Self.now })
        let paidInA = pay(api, key: a.key, PaymentTests.body())
        #expect(paidInA.status == 200, "\(bodyText(paidInA))")
        let tokenA = try #require((jsonObject(paidInA)["install"] as? [String: Any])?["token"] as? String)
        #expect((jsonObject(paidInA)["install"] as? [String: Any])?["trackerUrl"] as? String
            == "https://myapp.go.link/h?adj_t=abc123&user_id=\(tokenA)&adj_label=\(tokenA)")

        // B's own payment: no tracker, both URLs null.
        let paidInB = pay(api, key: b.key, PaymentTests.body(guid: "2f8fad5b-d9cb-469f-a165-70867728950e"))
        #expect(paidInB.status == 200, "\(bodyText(paidInB))")
        #expect((jsonObject(paidInB)["handoff"] as? [String: Any])?["trackerUrl"] is NSNull)
        #expect((jsonObject(paidInB)["install"] as? [String: Any])?["trackerUrl"] is NSNull)
        // B paying for A's buyer is refused before anything is built: no link of A's leaks.
        let foreign = pay(api, key: b.key, PaymentTests.body(paymentId: "pi_b"))
        #expect(bodyText(foreign) == #"{"statusCode":400,"code":"VISITOR_ID_FOREIGN_PROJECT","# +
            #""message":"field 'guid' names a buyer of another organization"}"#)
        // B's key reads and changes only B's project; A's tracker is untouched.
        let patched = api.respond(to: s2sRequest(.patch, "/s2s/v1/project", key: b.key, body: """
            {"tracker":"appsflyer","trackerLink":"https://b.onelink.me/X"}
            """))
        #expect(patched.status == 200 && bodyText(patched).contains(b.project))
        #expect(!bodyText(patched).contains(a.project))
        let readA = jsonObject(api.respond(to: s2sRequest(.get, "/s2s/v1/project", key: a.key)))
        #expect(readA["tracker"] as? String == "adjust")
        #expect(readA["trackerLink"] as? String == "https://myapp.go.link/h?adj_t=abc123")
    }

    @Test func anAdjustUniversalLinkWithoutAdjTIsRefusedByPatchAndByTheAdminCommand() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try fixture.responder()
        for link in ["https://myapp.go.link/handoff", "https://app.adj.st/handoff?adj_t="] {
            let response = api.respond(to: s2sRequest(.patch, "/s2s/v1/project", key: tenant.key, body: """
                {"tracker":"adjust","trackerLink":"\(link)"}
                """))
            #expect(response.status == 400)
            #expect(bodyText(response) == #"{"statusCode":400,"code":"VALIDATION_TRACKER_LINK_ADJ_T_REQUIRED","# +
                #""message":"\#(Self.adjTMessage)"}"#)
        }
        let outcome = try fixture.admin(["project", "update", tenant.project, "--tracker", "adjust",
                                         "--tracker-link", "https://myapp.go.link/handoff"])
        #expect(outcome.status == .exited(2))
        #expect(outcome.stderr.contains("field '--tracker-link' must carry its own adj_t parameter"),
                "\(outcome.stderr)")
        // Nothing was recorded: the project still has no tracker.
        let read = jsonObject(api.respond(to: s2sRequest(.get, "/s2s/v1/project", key: tenant.key)))
        #expect(read["tracker"] as? String == "none" && read["trackerLink"] is NSNull)
        // With its adj_t the same link is taken.
        let accepted = api.respond(to: s2sRequest(.patch, "/s2s/v1/project", key: tenant.key, body: """
            {"tracker":"adjust","trackerLink":"https://myapp.go.link/handoff?adj_t=abc123"}
            """))
        #expect(accepted.status == 200, "\(bodyText(accepted))")
    }
}
