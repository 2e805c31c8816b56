import API
import Commands
import Domain
import Foundation
import HTTPServer
import Testing
import TestSupport

/// `POST/GET /s2s/v1/campaigns` and `/s2s/v1/affiliates`, and `handoff admin affiliate …` (issue 15).
@Suite struct AffiliateProgramTests {
    private typealias F = AffiliateFixture

    @Test func aCampaignIsCreatedWithItsDefaultsAndListedInItsProjectOnly() throws {
        let fixture = try F.migrated()
        let a = try fixture.tenant()
        let created = fixture.send(.post, "/s2s/v1/campaigns", key: a.key,
                                   body: #"{"name":"Launch","commission":{"type":"percent","basisPoints":1500}}"#)
        #expect(created.status == 201)
        let json = jsonObject(created)
        let id = try #require(json["campaignId"] as? String)
        let createdAt = try #require(json["createdAt"] as? String)
        #expect(bodyText(created) == #"{"campaignId":"\#(id)","commission":{"basisPoints":1500,"recurringRenewals":0,"#
            + #""type":"percent"},"createdAt":"\#(createdAt)","holdDays":30,"name":"Launch","offerCode":null,"#
            + #""projectId":"\#(a.project)","windowDays":30}"#)
        let fixed = fixture.send(.post, "/s2s/v1/campaigns", key: a.key, body: #"{"name":"Fixed","commission":"#
            + #"{"type":"fixed","amountMinor":500,"currency":"USD","recurringRenewals":12},"windowDays":7,"#
            + #""holdDays":0,"offerCode":"SPRING_50"}"#)
        #expect(fixed.status == 201)
        #expect(bodyText(fixed).contains(
            #""commission":{"amountMinor":500,"currency":"USD","recurringRenewals":12,"type":"fixed"}"#))
        #expect(jsonObject(fixed)["offerCode"] as? String == "SPRING_50")
        #expect(jsonObject(fixed)["windowDays"] as? Int == 7 && jsonObject(fixed)["holdDays"] as? Int == 0)
        let listed = fixture.send(.get, "/s2s/v1/campaigns", key: a.key)
        #expect(listed.status == 200)
        let campaigns = try #require(jsonObject(listed)["campaigns"] as? [[String: Any]])
        #expect(campaigns.map { $0["name"] as? String } == ["Launch", "Fixed"])
        // Another organization, and another project of the same organization, see none of them.
        let b = try fixture.tenant()
        #expect(bodyText(fixture.send(.get, "/s2s/v1/campaigns", key: b.key)) == #"{"campaigns":[]}"#)
        let sibling = try fixture.tenants.admin(["project", "create", "--org", a.org, "--name", "Sibling"]).json()
        let siblingKey = try #require(sibling["secretKey"] as? String)
        #expect(bodyText(fixture.send(.get, "/s2s/v1/campaigns", key: siblingKey)) == #"{"campaigns":[]}"#)
        #expect(try fixture.events("CampaignCreated", org: a.org) == 2)
    }

    @Test func campaignRefusalsNameTheirFieldAndRecordNothing() throws {
        let fixture = try F.migrated()
        let a = try fixture.tenant()
        func refusal(_ body: String) -> (Int, String?, String?) {
            let response = fixture.send(.post, "/s2s/v1/campaigns", key: a.key, body: body)
            let json = jsonObject(response)
            return (response.status, json["code"] as? String, json["message"] as? String)
        }
        let rule = F.percent
        let cases: [(String, String, String)] = [
            (#"{"commission":\#(rule)}"#, "VALIDATION_FAILED", "field 'name' is required"),
            (#"{"name":"","commission":\#(rule)}"#, "VALIDATION_AFFILIATE_NAME_FORMAT", "field 'name' must"),
            (#"{"name":"L"}"#, "VALIDATION_FAILED", "field 'commission' is required"),
            (#"{"name":"L","commission":{"type":"share","basisPoints":1}}"#, "VALIDATION_COMMISSION_FORMAT",
             "field 'commission.type' must be percent or fixed"),
            (#"{"name":"L","commission":{"type":"percent","basisPoints":10001}}"#, "VALIDATION_COMMISSION_FORMAT",
             "field 'commission.basisPoints' must"),
            (#"{"name":"L","commission":{"type":"percent","basisPoints":0}}"#, "VALIDATION_COMMISSION_FORMAT",
             "field 'commission.basisPoints' must"),
            (#"{"name":"L","commission":{"type":"percent","basisPoints":5,"currency":"USD"}}"#,
             "VALIDATION_COMMISSION_FORMAT", "field 'commission.currency' must be absent"),
            (#"{"name":"L","commission":{"type":"fixed","amountMinor":0,"currency":"USD"}}"#,
             "VALIDATION_COMMISSION_FORMAT", "field 'commission.amountMinor' must"),
            (#"{"name":"L","commission":{"type":"fixed","amountMinor":5,"currency":"usd"}}"#,
             "VALIDATION_CURRENCY_FORMAT", "field 'commission.currency' must"),
            (#"{"name":"L","commission":{"type":"fixed","amountMinor":5}}"#, "VALIDATION_COMMISSION_FORMAT",
             "field 'commission.currency' must be given"),
            (#"{"name":"L","commission":{"type":"percent","basisPoints":5,"recurringRenewals":121}}"#,
             "VALIDATION_COMMISSION_FORMAT", "field 'commission.recurringRenewals' must"),
            (#"{"name":"L","commission":{"type":"percent","basisPoints":5,"cap":1}}"#, "VALIDATION_FAILED",
             "field 'commission.cap' is not a member of a commission rule"),
            (#"{"name":"L","commission":\#(rule),"windowDays":0}"#, "VALIDATION_WINDOW_DAYS_FORMAT",
             "field 'windowDays' must be an integer from 1 to 365"),
            (#"{"name":"L","commission":\#(rule),"windowDays":366}"#, "VALIDATION_WINDOW_DAYS_FORMAT",
             "field 'windowDays' must"),
            (#"{"name":"L","commission":\#(rule),"holdDays":-1}"#, "VALIDATION_HOLD_DAYS_FORMAT",
             "field 'holdDays' must be an integer from 0 to 365"),
            (#"{"name":"L","commission":\#(rule),"windowDays":"30"}"#, "VALIDATION_FAILED",
             "field 'windowDays' must be an integer"),
            (#"{"name":"L","commission":\#(rule),"offerCode":"SPRING 50"}"#, "VALIDATION_OFFER_CODE_FORMAT",
             "field 'offerCode' must"),
            (#"{"name":"L","commission":\#(rule),"budget":1}"#, "VALIDATION_FAILED",
             "field 'budget' is not a field of a campaign"),
        ]
        for (body, code, message) in cases {
            let (status, actualCode, actualMessage) = refusal(body)
            #expect(status == 400 && actualCode == code, "\(body)")
            #expect(actualMessage?.hasPrefix(message) == true, "\(body): \(actualMessage ?? "")")
        }
        #expect(try fixture.events("CampaignCreated", org: a.org) == 0)
        #expect(try fixture.count("affiliate_campaigns", org: a.org) == 0)
        // Nulls count as absent; over the body limit is 413.
        #expect(refusal(#"{"name":"L","commission":\#(rule),"windowDays":null,"offerCode":null}"#).0 == 201)
        #expect(fixture.api.bodyLimit(for: .post, path: "/s2s/v1/campaigns") == 4096)
        #expect(fixture.api.bodyLimit(for: .post, path: "/s2s/v1/affiliates") == 4096)
        #expect(fixture.api.bodyLimit(for: .get, path: "/s2s/v1/affiliates") == 0)
        // Without a key: 401.
        #expect(fixture.api.respond(to: s2sRequest(.get, "/s2s/v1/campaigns", key: nil)).status == 401)
    }

    @Test func anAffiliateGetsItsCodeAndLinkAndIsListedInItsProjectOnly() throws {
        let fixture = try F.migrated()
        let a = try fixture.tenant()
        let campaign = try fixture.campaign(key: a.key)
        let created = fixture.send(.post, "/s2s/v1/affiliates", key: a.key,
                                   body: #"{"name":"Jane's blog","campaignId":"\#(campaign)","refCode":" jane234 "}"#)
        #expect(created.status == 201)
        let json = jsonObject(created)
        let id = try #require(json["affiliateId"] as? String)
        let createdAt = try #require(json["createdAt"] as? String)
        #expect(bodyText(created) == #"{"affiliateId":"\#(id)","campaignId":"\#(campaign)","#
            + #""createdAt":"\#(createdAt)","link":"https://handoff.example.com/a/JANE234?p=\#(a.project)","#
            + #""name":"Jane's blog","#
            + #""projectId":"\#(a.project)","refCode":"JANE234"}"#)
        // Without a code one is minted: 8 characters of the alphabet.
        let minted = try fixture.affiliate(key: a.key, campaign: campaign, name: "Minted")
        let code = try #require(minted["refCode"] as? String)
        #expect(RefCode(stored: code) != nil && code.count == 8)
        let listed = try #require(jsonObject(fixture.send(.get, "/s2s/v1/affiliates", key: a.key))["affiliates"]
            as? [[String: Any]])
        #expect(listed.map { $0["refCode"] as? String } == ["JANE234", code])
        #expect(listed.first?["link"] as? String == "https://handoff.example.com/a/JANE234?p=\(a.project)")
        let b = try fixture.tenant()
        #expect(bodyText(fixture.send(.get, "/s2s/v1/affiliates", key: b.key)) == #"{"affiliates":[]}"#)
    }

    @Test func aCodeIsUniqueInItsProjectOnlyAndACampaignOfAnotherProjectOrOrgIsNotFound() throws {
        let fixture = try F.migrated()
        let a = try fixture.tenant()
        let b = try fixture.tenant()
        let campaignA = try fixture.campaign(key: a.key)
        let campaignB = try fixture.campaign(key: b.key)
        _ = try fixture.affiliate(key: a.key, campaign: campaignA, refCode: "PARTNER7")
        // Taken, in any spelling.
        let taken = fixture.send(.post, "/s2s/v1/affiliates", key: a.key,
                                 body: #"{"name":"Copy","campaignId":"\#(campaignA)","refCode":"partner7"}"#)
        #expect(taken.status == 409)
        #expect(bodyText(taken) == #"{"statusCode":409,"code":"REF_CODE_TAKEN","# +
            #""message":"field 'refCode' is taken by another affiliate of this project"}"#)
        // Another organization may hold the same code.
        _ = try fixture.affiliate(key: b.key, campaign: campaignB, refCode: "PARTNER7")
        // Org A cannot name org B's campaign (nor can a sibling project name A's): 404, nothing recorded.
        let sibling = try fixture.tenants.admin(["project", "create", "--org", a.org, "--name", "Sibling"]).json()
        let siblingKey = try #require(sibling["secretKey"] as? String)
        for (key, campaign) in [(a.key, campaignB), (siblingKey, campaignA), (a.key, UUID().uuidString)] {
            let response = fixture.send(.post, "/s2s/v1/affiliates", key: key,
                                        body: #"{"name":"X","campaignId":"\#(campaign)","refCode":"THER2345"}"#)
            #expect(response.status == 404)
            #expect(bodyText(response) == #"{"statusCode":404,"code":"NOT_FOUND","# +
                #""message":"field 'campaignId' names no campaign of this project"}"#)
        }
        #expect(try fixture.events("AffiliateCreated", org: a.org) == 1)
        // Malformed fields name themselves.
        for (body, code) in [
            (#"{"name":"X","campaignId":"\#(campaignA)","refCode":"ABC"}"#, "VALIDATION_REF_CODE_FORMAT"),
            (#"{"name":"X","campaignId":"\#(campaignA)","refCode":"ABCDEFI"}"#, "VALIDATION_REF_CODE_FORMAT"),
            (#"{"name":"X","campaignId":"c1"}"#, "VALIDATION_CAMPAIGN_ID_FORMAT"),
            (#"{"name":"","campaignId":"\#(campaignA)"}"#, "VALIDATION_AFFILIATE_NAME_FORMAT"),
            (#"{"name":"X"}"#, "VALIDATION_FAILED"),
        ] {
            let response = fixture.send(.post, "/s2s/v1/affiliates", key: a.key, body: body)
            #expect(response.status == 400 && jsonObject(response)["code"] as? String == code, "\(body)")
        }
    }

    @Test func concurrentCreationsWithOneCodeMakeOneAffiliate() throws {
        let fixture = try F.migrated()
        let a = try fixture.tenant()
        let campaign = try fixture.campaign(key: a.key)
        let answers = Answers()
        onThreads(8) { index in
            let body = #"{"name":"R\#(index)","campaignId":"\#(campaign)","refCode":"RACE234"}"#
            let response = fixture.send(.post, "/s2s/v1/affiliates", key: a.key, body: body)
            answers.add(response.status, "")
        }
        #expect(answers.statuses.sorted() == [201] + Array(repeating: 409, count: 7))
        #expect(try fixture.count("affiliates", org: a.org) == 1)
    }

    @Test func theAdminCLICreatesAndListsCampaignsAndAffiliatesAsJSON() throws {
        let fixture = try F.migrated()
        let a = try fixture.tenant()
        let environment = ["PUBLIC_BASE_URL": "https://links.example.com"]
        let campaign = try fixture.tenants.admin([
            "affiliate", "campaign", "create", "--project", a.project, "--name", "CLI", "--amount-minor", "250",
            "--currency", "EUR", "--recurring-renewals", "3", "--window-days", "14", "--offer-code", "CLI_OFFER",
        ]).json()
        let campaignId = try #require(campaign["campaignId"] as? String)
        let rule = try #require(campaign["commission"] as? [String: Any])
        #expect(rule["type"] as? String == "fixed" && rule["amountMinor"] as? Int == 250)
        #expect(rule["currency"] as? String == "EUR" && rule["recurringRenewals"] as? Int == 3)
        #expect(campaign["windowDays"] as? Int == 14 && campaign["holdDays"] as? Int == 30)
        let affiliate = try fixture.tenants.admin([
            "affiliate", "create", "--project", a.project, "--campaign", campaignId, "--name", "Bob",
            "--ref-code", "ben2345",
        ], environment: environment).json()
        #expect(affiliate["refCode"] as? String == "BEN2345")
        #expect(affiliate["link"] as? String == "https://links.example.com/a/BEN2345?p=\(a.project)")
        let affiliates = try fixture.tenants.admin(["affiliate", "list", "--project", a.project],
                                                   environment: environment).json()
        #expect((affiliates["affiliates"] as? [[String: Any]])?.map { $0["affiliateId"] as? String }
            == [affiliate["affiliateId"] as? String])
        let campaigns = try fixture.tenants.admin(["affiliate", "campaign", "list", "--project", a.project]).json()
        #expect((campaigns["campaigns"] as? [[String: Any]])?.count == 1)
        // The same routes see what the CLI made.
        #expect((jsonObject(fixture.send(.get, "/s2s/v1/affiliates", key: a.key))["affiliates"] as? [Any])?.count
            == 1)
        // Refusals: bad arguments exit 2 naming the flag; a taken code or another org's campaign exit 1.
        let both = try fixture.tenants.admin(["affiliate", "campaign", "create", "--project", a.project, "--name",
                                              "X", "--basis-points", "5", "--amount-minor", "5"])
        #expect(both.status == .exited(2) && both.stderr.contains("exactly one of --basis-points and --amount-minor"))
        let badPoints = try fixture.tenants.admin(["affiliate", "campaign", "create", "--project", a.project,
                                                   "--name", "X", "--basis-points", "0"])
        #expect(badPoints.status == .exited(2) && badPoints.stderr.contains("field '--basis-points' must"))
        let badCode = try fixture.tenants.admin(["affiliate", "create", "--project", a.project, "--campaign",
                                                 campaignId, "--name", "X", "--ref-code", "I0"])
        #expect(badCode.status == .exited(2) && badCode.stderr.contains("field '--ref-code' must"))
        let taken = try fixture.tenants.admin(["affiliate", "create", "--project", a.project, "--campaign",
                                               campaignId, "--name", "X", "--ref-code", "BEN2345"])
        #expect(taken.status == .exited(1) && taken.stderr.contains("field '--ref-code' is taken"))
        let b = try fixture.tenant()
        let foreign = try fixture.tenants.admin(["affiliate", "create", "--project", b.project, "--campaign",
                                                 campaignId, "--name", "X"])
        #expect(foreign.status == .exited(1) && foreign.stderr.contains("field '--campaign' names no campaign"))
        let unknownProject = try fixture.tenants.admin(["affiliate", "list", "--project", UUID().uuidString])
        #expect(unknownProject.status == .exited(1) && unknownProject.stderr.contains("no project has this id"))
    }
}
