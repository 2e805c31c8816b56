import Domain
import EventStore
import Foundation
import Testing
import TestSupport

/// `audit export` and `audit report` read from `DATABASE_READ_URL` when it is set (issue 19, docs/operations.md
/// "Read scaling"): a replica reached as the application role, which row-level security lets read the one org the
/// command's transaction is scoped to. The owner's URL is made unreachable, so a success proves the read URL served.
@Suite struct AuditReadReplicaTests {
    /// A URL nothing listens on (port 1), failing fast.
    static let unreachable = "postgresql://handoff@127.0.0.1:1/handoff?connect_timeout=2"

    private func seed(_ fixture: AuditFixture, org: UUID, payments: Int) throws {
        let store = fixture.store()
        for number in 0..<payments {
            try store.append(org: org, stream: "payment-\(number)", expectedVersion: .any,
                             events: [NewEvent(type: "PaymentRecorded", data: .object(["amount": .integer(499)])),
                                      NewEvent(type: "HandoffCodeMinted", data: .object(["ttl": .integer(72)]))],
                             metadata: auditMetadata)
        }
    }

    @Test func anExportReadsTheOrgFromTheReadURLAsTheApplicationRole() throws {
        let fixture = try AuditFixture.migrated()
        let (org, other) = (UUID(), UUID())
        try seed(fixture, org: org, payments: 3)
        try seed(fixture, org: other, payments: 2)
        let environment = fixture.environment.merging([
            "DATABASE_READ_URL": fixture.database.appURL, "MIGRATION_DATABASE_URL": Self.unreachable,
        ]) { $1 }

        let export = try fixture.handoff(["audit", "export", "--org", org.uuidString, "--format", "jsonl"],
                                         environment: environment)
        #expect(export.status == .exited(0), "\(export.stderr)")
        let lines = export.stdout.split(separator: "\n").map(String.init)
        // Header, the org's 6 events (none of the other org's), trailer.
        #expect(lines.count == 1 + 6 + 1)
        #expect(lines.dropFirst().dropLast().allSatisfy { $0.contains(org.uuidString.lowercased()) })
        #expect(lines.last?.contains(#""count":6"#) == true)
        #expect(!export.stderr.contains("DATABASE_READ_URL"))

        // Without a read URL the same export needs the owner's URL, which is unreachable here.
        var ownerOnly = environment
        ownerOnly["DATABASE_READ_URL"] = nil
        let refused = try fixture.handoff(["audit", "export", "--org", org.uuidString, "--format", "jsonl"],
                                          environment: ownerOnly)
        #expect(refused.status == .exited(3))
    }

    @Test func aReadURLThatIsDownFallsBackToTheOwnersURLAndSaysSo() throws {
        let fixture = try AuditFixture.migrated()
        let org = UUID()
        try seed(fixture, org: org, payments: 2)
        let environment = fixture.environment.merging(["DATABASE_READ_URL": Self.unreachable]) { $1 }

        let export = try fixture.handoff(["audit", "export", "--org", org.uuidString, "--format", "jsonl"],
                                         environment: environment)
        #expect(export.status == .exited(0), "\(export.stderr)")
        #expect(export.stdout.split(separator: "\n").count == 1 + 4 + 1)
        #expect(export.stderr.contains("DATABASE_READ_URL cannot be reached"))
    }

    @Test func aReportReadsTheOrgFromTheReadURLAsTheApplicationRole() throws {
        let fixture = try AuditFixture.migrated()
        let org = UUID()
        try seed(fixture, org: org, payments: 1)
        let environment = fixture.environment.merging([
            "DATABASE_READ_URL": fixture.database.appURL, "MIGRATION_DATABASE_URL": Self.unreachable,
        ]) { $1 }

        // The org has history but no signed head: an empty report and a note (an unscoped application role would
        // see no history at all and answer 1, "no such organization").
        let report = try fixture.handoff(["audit", "report", "--org", org.uuidString, "--format", "jsonl"],
                                         environment: environment)
        #expect(report.status == .exited(0), "\(report.stderr)")
        #expect(report.stderr.contains("no signed head yet"))
        let unknown = try fixture.handoff(["audit", "report", "--org", UUID().uuidString, "--format", "jsonl"],
                                          environment: environment)
        #expect(unknown.status == .exited(1))
    }
}
