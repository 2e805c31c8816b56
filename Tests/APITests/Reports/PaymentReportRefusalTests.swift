import API
import Commands
import Foundation
import HTTPServer
import Testing
import TestSupport

/// The payment report's edges (issue 16 §4): another organization's figures never show, an org without a signed
/// head gets an empty report naming none, sums past 64 bits stay exact, and every refusal names its parameter or flag.
@Suite struct PaymentReportRefusalTests {
    typealias Fixture = PaymentReportFixture
    static let guid = "0f8fad5b-d9cb-469f-a165-70867728950e"
    static let otherGuid = "7c9e6679-7425-40de-944b-e07fc1f90ae7"

    @Test func anOrganizationReadsItsOwnFiguresOnlyAndNoneBeforeItsFirstSignedHead() throws {
        let fixture = try TenantFixture.migrated()
        let (a, b) = (try fixture.tenant(), try fixture.tenant())
        let api = try fixture.responder()
        #expect(Fixture.pay(api, key: a.key, guid: Self.guid, id: "pi_1", amount: "1000", currency: "USD",
                            product: "a_only_product") == 200)
        #expect(Fixture.pay(api, key: b.key, guid: Self.otherGuid, id: "pi_1", amount: "30", currency: "GBP",
                            product: "b_product") == 200)

        // No signed head yet: an empty report that names none (the API and the CLI alike).
        let unsigned = Fixture.report(api, key: b.key)
        #expect(unsigned.status == 200)
        #expect(bodyText(unsigned) == #"{"from":null,"groupBy":"day","groups":[],"head":null,"orgId":"\#(b.org)","#
            + #""throughOrgSeq":0,"to":null,"totals":[]}"#)
        let cli = try fixture.database.handoff(["audit", "report", "--org", b.org, "--format", "csv"])
        #expect(cli.status == .exited(0))
        #expect(cli.stderr.contains("has no signed head yet"))
        #expect(cli.stdout == PaymentReport.csvColumns.joined(separator: ",") + "\r\n")

        #expect(try Fixture.sign(fixture.database, at: Date()) == 2)
        let mine = jsonObject(Fixture.report(api, key: b.key, ["groupBy": "product"]))
        #expect((mine["head"] as? [String: Any])?["org_id"] as? String == b.org)
        let totals = mine["totals"] as? [[String: Any]] ?? []
        #expect(totals.map { $0["currency"] as? String } == ["GBP"])
        #expect(totals.first?["gross"] as? Int == 30)
        let body = bodyText(Fixture.report(api, key: b.key, ["groupBy": "product"]))
        #expect(!body.contains(a.org) && !body.contains("a_only_product") && !body.contains("USD"))
        let theirs = jsonObject(Fixture.report(api, key: a.key))
        #expect((theirs["totals"] as? [[String: Any]])?.map { $0["gross"] as? Int } == [1000])

        let unknown = try fixture.database.handoff(["audit", "report", "--org", UUID().uuidString, "--format",
                                                    "jsonl"])
        #expect(unknown.status == .exited(1))
        #expect(unknown.stdout.isEmpty)
    }

    @Test func sumsBeyondSixtyFourBitsAreExact() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let api = try fixture.responder()
        let max = String(Int64.max)
        for id in ["pi_1", "pi_2"] {
            #expect(Fixture.pay(api, key: a.key, guid: Self.guid, id: id, amount: max, currency: "USD",
                                product: "huge") == 200)
        }
        #expect(Fixture.refund(api, key: a.key, id: "pi_1") == 200)
        try Fixture.sign(fixture.database, at: Date())
        let body = bodyText(Fixture.report(api, key: a.key))
        #expect(body.contains(#""gross":18446744073709551614,"net":9223372036854775807,"paymentCount":2,"#
            + #""refundCount":1,"refunds":9223372036854775807}"#), "\(body)")
    }

    @Test func malformedParametersAndFlagsAreRefusedByName() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let api = try fixture.responder()
        let instant = "must be an RFC 3339 date-time, e.g. 2026-01-01T00:00:00Z"
        for (name, value, rule) in [("from", "yesterday", instant), ("to", "2030-13-01T00:00:00Z", instant),
                                    ("from", "", instant), ("groupBy", "week", "must be day or product"),
                                    ("groupBy", "Day", "must be day or product")] {
            let refused = Fixture.report(api, key: a.key, [name: value])
            #expect(refused.status == 400, "\(name)=\(value)")
            #expect(bodyText(refused) == #"{"statusCode":400,"code":"VALIDATION_FAILED","message":"query "#
                + #"parameter '\#(name)' \#(rule)"}"#, "\(name)=\(value)")
        }
        #expect(Fixture.report(api, key: nil).status == 401)
        #expect(Fixture.report(api, key: SecretKeyText.fresh()).status == 401)
        #expect(api.bodyLimit(for: .get, path: "/s2s/v1/reports/payments") == 0)

        for (arguments, flag) in [(["--format", "csv"], "--org is required"),
                                  (["--org", "x", "--format", "csv"], "--org must be an organization id"),
                                  (["--org", a.org], "--format is required"),
                                  (["--org", a.org, "--format", "xml"], "--format must be csv or jsonl"),
                                  (["--org", a.org, "--format", "csv", "--group-by", "week"], "--group-by must be"),
                                  (["--org", a.org, "--format", "csv", "--from", "soon"], "--from must be an RFC"),
                                  (["--org", a.org, "--format", "csv", "--to", "x"], "--to must be an RFC"),
                                  (["--org", a.org, "--format", "csv", "--limit", "3"], "unknown argument")] {
            let refused = try fixture.database.handoff(["audit", "report"] + arguments)
            #expect(refused.status == .exited(2), "\(arguments)")
            #expect(refused.stderr.contains(flag), "\(arguments): \(refused.stderr)")
            #expect(refused.stdout.isEmpty)
        }
    }
}
