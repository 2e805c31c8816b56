@testable import API
import Domain
import Foundation
import HTTPServer
import Testing

/// `GET /s2s/v1/reports/handoff` (issue 18): every figure of the funnel recomputed here from the organization's audit
/// export (`handoff audit export --format jsonl`) alone — shares, paths, median, refusals, the unidentified — the
/// unidentified page, refusals by name, and another organization's report empty.
@Suite struct HandoffReportTests {
    typealias W = DiagnosticsWorld
    typealias F = FingerprintFixture
    static let guidC = "2f8fad5b-d9cb-469f-a165-70867728950e"

    func report(_ world: W, query: String = "", key: String? = nil) -> Response {
        var request = s2sRequest(.get, "/s2s/v1/reports/handoff", key: key ?? world.world.tenant.key)
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            request.query[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return world.world.api.respond(to: request)
    }

    /// Three payments: a code redeemed after 2 min, a fingerprint matched after 90 min, one refused (screen).
    func scenario() throws -> W {
        let diagnostics = try W()
        let world = diagnostics.world
        let first = try world.pay()
        let second = try world.pay(guid: F.guidB, paymentId: "pi_2")
        let third = try world.pay(guid: Self.guidC, paymentId: "pi_3")
        #expect(world.capture(second.token, ip: "203.0.113.41").status == 204)
        #expect(world.capture(third.token, ip: "203.0.113.42").status == 204)
        world.clock.advance(120)
        #expect(diagnostics.redeem(first.code).status == 200)
        #expect(world.resolve(world.probe(screen: "100x200"), ip: "203.0.113.42").status == 404)
        world.clock.advance(5280)
        #expect(world.resolve(world.probe(), ip: "203.0.113.41").status == 200)
        return diagnostics
    }

    @Test func theFiguresAreTheOnesTheExportGives() throws {
        let diagnostics = try scenario()
        let answer = report(diagnostics)
        #expect(answer.status == 200)
        let json = jsonObject(answer)

        // Recomputed from the audit export: payments, their mint instants, each buyer's first identification.
        let world = diagnostics.world
        let export = try world.fixture.database.handoff(["audit", "export", "--org", world.tenant.org,
                                                         "--format", "jsonl"])
        try #require(export.status == .exited(0), "\(export.stderr)")
        let lines = try PaymentReportFixture.lines(export.stdout)
        #expect(lines.first?["kind"] as? String == "header" && lines.last?["kind"] as? String == "trailer")
        let events = lines.filter { $0["kind"] == nil }
        #expect(lines.last?["count"] as? Int == events.count)
        func data(_ event: [String: Any]) -> [String: Any] { event["data"] as? [String: Any] ?? [:] }
        func instant(_ text: Any?) -> Date? { (text as? String).flatMap { try? PaymentFields.rfc3339($0).get() } }
        var paidAt: [String: Date] = [:]
        var guidOf: [String: String] = [:]
        var minted: [String: (kind: String, source: String)] = [:]
        var identified: [String: (at: Date, path: String)] = [:]
        var refusals: [String: Int] = [:]
        for event in events {
            let fields = data(event)
            let text = { (name: String) in fields[name] as? String ?? "" }
            var found: (at: Date, path: String)?
            switch event["event_type"] as? String {
            case "PaymentRecorded": guidOf[text("paymentId")] = text("guid")
            case "HandoffCodeMinted":
                minted[text("codeHash")] = (text("kind"), text("source"))
                if text("kind") == "handoff" && text("source") == "payment" {
                    paidAt[text("paymentId")] = instant(fields["expiresAt"])?.addingTimeInterval(-72 * 3600)
                }
            case "HandoffCodeRedeemed":
                let code = minted[text("codeHash")]
                let path = code?.source == "recovery" ? "recoveryMail"
                    : code?.kind == "install" ? "installToken" : "handoffCode"
                found = instant(fields["redeemedAt"]).map { (at: $0, path: path) }
            case "FingerprintMatched":
                let path = text("matchMethod") == "ip" ? "fingerprintIp" : "fingerprintExact"
                found = instant(fields["matchedAt"]).map { (at: $0, path: path) }
            case "FingerprintRefused": refusals[text("reason"), default: 0] += 1
            default: break
            }
            if let found, found.at < identified[text("guid")]?.at ?? .distantFuture {
                identified[text("guid")] = found
            }
        }
        // Each payment's seconds to its buyer's first identification (0 when identified before it) and that path.
        let judged = guidOf.keys.sorted().compactMap { payment -> (seconds: Int, path: String)? in
            guard let first = identified[guidOf[payment]!], let paid = paidAt[payment] else { return nil }
            return (max(0, Int(first.at.timeIntervalSince(paid))), first.path)
        }
        let seconds = judged.map(\.seconds).sorted()
        let horizons = [("within1h", 3600), ("within24h", 86400), ("within7d", 604_800)]
        #expect(json["payments"] as? Int == guidOf.count && guidOf.count == 3)
        let shares = json["identified"] as? [String: [String: Int]]
        for (name, limit) in horizons {
            let count = seconds.filter { $0 <= limit }.count
            #expect(shares?[name] == ["count": count, "shareBasisPoints": count * 10000 / guidOf.count], "\(name)")
        }
        #expect(seconds == [120, 5400])
        #expect(json["medianSecondsToIdentification"] as? Int == seconds[(seconds.count - 1) / 2])
        var byPath: [String: [String: Int]] = [:]
        for path in IdentificationPath.allCases.map(\.rawValue) {
            byPath[path] = Dictionary(uniqueKeysWithValues: horizons.map { name, limit in
                (name, judged.filter { $0.path == path && $0.seconds <= limit }.count)
            })
        }
        #expect(json["byPath"] as? [String: [String: Int]] == byPath)
        #expect(byPath["handoffCode"] == ["within1h": 1, "within24h": 1, "within7d": 1])
        #expect(byPath["fingerprintExact"] == ["within1h": 0, "within24h": 1, "within7d": 1])
        let reasons = ["ambiguous", "contradicting", "windowPassed", "disabled"]
        #expect(json["fingerprintRefusals"] as? [String: Int]
            == Dictionary(uniqueKeysWithValues: reasons.map { ($0, refusals[$0] ?? 0) }))
        #expect(refusals == ["contradicting": 1])
        // The unidentified: the payments whose buyer the export never shows identified, oldest first.
        let unidentifiedIds = guidOf.keys.filter { identified[guidOf[$0]!] == nil }
            .sorted { (paidAt[$0]!, $0) < (paidAt[$1]!, $1) }
        let unidentified = json["unidentified"] as? [String: Any]
        let items = unidentified?["items"] as? [[String: Any]]
        #expect(items?.map { $0["paymentId"] as? String } == unidentifiedIds && unidentifiedIds == ["pi_3"])
        #expect(items?.map { $0["paidAt"] as? String } == unidentifiedIds.map { PaymentFields.text(paidAt[$0]!) })
        #expect(items?.map { $0["guid"] as? String } == unidentifiedIds.map { guidOf[$0] })
        #expect((items?.first?["verdict"] as? [String: String])?["reason"] == "fingerprintRefused")
        #expect(items?.first?["paidAt"] as? String == "2027-01-15T08:00:00.250Z")
        #expect(unidentified?["total"] as? Int == unidentifiedIds.count && unidentified?["nextOffset"] is NSNull)
    }

    @Test func theUnidentifiedArePagedAndTheRangeAndPageAreChecked() throws {
        let diagnostics = try W(settings: ["--fingerprint", "off"])
        for index in 1...3 { _ = try diagnostics.world.pay(paymentId: "pi_\(index)") }
        let first = jsonObject(report(diagnostics, query: "limit=2"))["unidentified"] as? [String: Any]
        #expect((first?["items"] as? [[String: Any]])?.map { $0["paymentId"] as? String } == ["pi_1", "pi_2"])
        #expect(first?["nextOffset"] as? Int == 2 && first?["total"] as? Int == 3)
        let second = jsonObject(report(diagnostics, query: "limit=2&offset=2"))["unidentified"] as? [String: Any]
        #expect((second?["items"] as? [[String: Any]])?.map { $0["paymentId"] as? String } == ["pi_3"])
        #expect(second?["nextOffset"] is NSNull)
        // A range that ends before anything was recorded.
        let empty = jsonObject(report(diagnostics, query: "to=2001-01-01T00:00:00Z"))
        #expect(empty["payments"] as? Int == 0 && empty["medianSecondsToIdentification"] is NSNull)
        #expect(empty["to"] as? String == "2001-01-01T00:00:00.000Z")
        let badLimit = report(diagnostics, query: "limit=0")
        #expect(badLimit.status == 400)
        #expect(bodyText(badLimit) == #"{"statusCode":400,"code":"VALIDATION_FAILED","message":"query parameter "#
            + #"'limit' must be a whole number from 1 to 200"}"#)
        #expect(report(diagnostics, query: "from=yesterday").status == 400)
    }

    @Test func anotherOrganizationsKeySeesOnlyItsOwnProject() throws {
        let diagnostics = try scenario()
        let other = try diagnostics.world.fixture.tenant()
        let answer = report(diagnostics, key: other.key)
        #expect(answer.status == 200)
        #expect(jsonObject(answer)["payments"] as? Int == 0)
        #expect(jsonObject(answer)["projectId"] as? String == other.project)
        #expect(!bodyText(answer).contains("pi_3"))
    }
}
