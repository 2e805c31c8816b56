@testable import API
import Commands
import Crypto
import Domain
import Foundation
import Testing
import TestSupport

/// `handoff admin buyer timeline` and `handoff admin dashboard-link` (issue 18): the same timeline as the API, and a
/// dashboard link the server's key opens.
@Suite struct DiagnosticsAdminTests {
    typealias W = DiagnosticsWorld

    @Test func buyerTimelinePrintsTheVerdictThenOneLinePerFactAndRefusesAnotherOrganization() throws {
        let diagnostics = try W(settings: ["--fingerprint", "off"])
        let world = diagnostics.world
        #expect(diagnostics.redeem(try world.pay().code).status == 200)
        let guid = PaymentTests.guidA
        let text = try world.fixture.admin(["buyer", "timeline", "--org", world.tenant.org, "--guid", guid])
        #expect(text.status == .exited(0), "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.prefix(3) == ["buyer \(guid)", "identified via handoff code at 2027-01-15T08:00:00.250Z", ""])
        #expect(lines.contains("2027-01-15T08:00:00.250Z  pi_1  "
            + "Handoff code redeemed by the app: it learned the guid."))
        let json = try world.fixture.admin(["buyer", "timeline", "--org", world.tenant.org, "--payment", "pi_1",
                                            "--json"])
        #expect(json.status == .exited(0))
        let answer = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(answer?["paymentId"] as? String == "pi_1")
        #expect((answer?["verdict"] as? [String: Any])?["path"] as? String == "handoffCode")

        let other = try world.fixture.tenant()
        let foreign = try world.fixture.admin(["buyer", "timeline", "--org", other.org, "--guid", guid])
        #expect(foreign.status == .exited(1) && foreign.stderr.contains("no such buyer or payment"))
        let neither = try world.fixture.admin(["buyer", "timeline", "--org", world.tenant.org])
        #expect(neither.status == .exited(2) && neither.stderr.contains("exactly one of '--guid' and '--payment'"))
    }

    @Test func dashboardLinkPrintsALinkForOneHourThatTheDeploymentsKeyOpens() throws {
        let diagnostics = try W()
        let fixture = diagnostics.world.fixture
        let project = diagnostics.world.tenant.project
        let outcome = try fixture.admin(["dashboard-link", "--project", project],
                                        environment: ["PUBLIC_BASE_URL": "https://handoff.example.com"])
        #expect(outcome.status == .exited(0), "\(outcome.stderr)")
        let answer = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let token = try #require(answer?["token"] as? String)
        #expect(answer?["url"] as? String == "https://handoff.example.com/dashboard/\(token)")
        let masterKey = try #require(ProcessInfo.processInfo.environment["HANDOFF_MASTER_KEY"]
            .flatMap(Base64URL.decode))
        let claims = try #require(DashboardLinks(masterKey: masterKey).open(token, now: Date()))
        #expect(claims.project.description == project && claims.org.description == diagnostics.world.tenant.org)
        #expect(abs(claims.expiresAt.timeIntervalSinceNow - 3600) < 120)
        #expect(answer?["expiresAt"] as? String == PaymentFields.text(claims.expiresAt))

        let unknown = try fixture.admin(["dashboard-link", "--project", "5b0f1f3e-4c1a-4c47-9d5b-0a8d3f3e1a11"])
        #expect(unknown.status == .exited(1))
        #expect(try fixture.admin(["dashboard-link"]).status == .exited(2))
    }
}
