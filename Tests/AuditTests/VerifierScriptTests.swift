import Crypto
import Domain
import EventStore
import Foundation
import Testing
import TestSupport

/// docs/audit_verify.py against real exports: `handoff audit` writes them, docs/audit_verify_test.py tampers with them
/// in every way docs/audit.md lists and expects each to be caught (issue 16 §3).
@Suite struct VerifierScriptTests {
    /// Exports of one org whose history runs past its latest signed head, an early head kept outside, another org's
    /// head and the keys, written to a folder of their own.
    private func artifacts(_ fixture: AuditFixture) throws -> String {
        let (org, other) = (UUID(), UUID())
        let store = fixture.store()
        let clock = TestClock()
        let checkpoint = fixture.checkpoint(clock: clock)
        for data in AuditCommandTests.tricky {
            try store.append(org: org, stream: "tricky", expectedVersion: .any,
                             events: [NewEvent(type: "TrickyRecorded", data: data)], metadata: auditMetadata)
        }
        try ChainHeads.append(store, org: org, count: 5)
        try ChainHeads.append(store, org: other, count: 2)
        #expect(try checkpoint.signDue() == 2)
        try ChainHeads.append(store, org: org, count: 5)
        clock.advance(60)
        #expect(try checkpoint.signDue() == 1)
        try ChainHeads.append(store, org: org, count: 2)

        let folder = try TestEnvironment.scratchFolder() + "/verifier-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let owner = try fixture.ownerConnection()
        let heads = try ChainHeads.heads(org, on: owner)
        #expect(heads.map(\.orgSeq) == [10, 15])
        let otherHead = try #require(try ChainHeadStore.latest(org: other, on: owner))
        for (name, head) in [("head.json", heads[0]), ("latest_head.json", heads[1]), ("other_head.json", otherHead)] {
            try (head.json.canonicalText + "\n").write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
        }
        let exports: [(String, [String])] = [
            ("keys.json", ["audit", "keys"]),
            ("export.jsonl", ["audit", "export", "--org", org.uuidString, "--format", "jsonl"]),
            ("partial.jsonl", ["audit", "export", "--org", org.uuidString, "--format", "jsonl", "--from-seq", "12"]),
            ("empty.jsonl", ["audit", "export", "--org", org.uuidString, "--format", "jsonl", "--from-seq", "18"]),
            ("export.csv", ["audit", "export", "--org", org.uuidString, "--format", "csv", "--manifest",
                            folder + "/export.manifest"]),
        ]
        for (name, arguments) in exports {
            let outcome = try fixture.handoff(arguments)
            #expect(outcome.status == .exited(0), "\(arguments): \(outcome.stderr)")
            try FileManager.default.copyItem(atPath: outcome.stdoutPath, toPath: folder + "/" + name)
        }
        return folder
    }

    @Test func theVerifiersOwnTestsCatchEveryTamperCaseOnRealExports() throws {
        let fixture = try AuditFixture.migrated()
        let folder = try artifacts(fixture)
        let trailer = try String(contentsOfFile: folder + "/export.jsonl", encoding: .utf8)
            .split(separator: "\n").last.map(String.init) ?? ""
        #expect(try EventJSON.parse(trailer)["head"]?["org_seq"] == .integer(15))
        #expect(try EventJSON.parse(trailer)["last_org_seq"] == .integer(17))

        let outcome = try CommandOutcome.run(["python3", HandoffBinary.packageRoot() + "/docs/audit_verify_test.py",
                                              folder])
        #expect(outcome.status == .exited(0), "\(outcome.stdout)\(outcome.stderr)")
        // unittest reports on standard error: every test ran and passed.
        #expect(outcome.stderr.contains("\nOK\n"), "\(outcome.stderr)")
        let ran = outcome.stderr.split(separator: "\n").first { $0.hasPrefix("Ran ") }.map(String.init)
        #expect(ran?.hasPrefix("Ran 30 tests") == true, "\(ran ?? outcome.stderr)")
        #expect(!outcome.stderr.contains("skipped"))
    }

    @Test func theVerifierAgreesWithHandoffAuditVerifyOnAKeptHead() throws {
        let fixture = try AuditFixture.migrated()
        let folder = try artifacts(fixture)
        let script = HandoffBinary.packageRoot() + "/docs/audit_verify.py"
        let verified = try CommandOutcome.run(["python3", script, "--keys", folder + "/keys.json",
                                               "--head", folder + "/head.json", folder + "/export.jsonl"])
        #expect(verified.status == .exited(0), "\(verified.stdout)\(verified.stderr)")
        let head = try ChainHead(json: try EventJSON.parse(
            try String(contentsOfFile: folder + "/head.json", encoding: .utf8).trimmingCharacters(in: .newlines)))
        #expect(verified.stdout.contains("signed head org_seq 10 (key \(head.keyId), signed at \(head.signedAt)): "
            + "matches, signature verified"))
        let cli = try fixture.handoff(["audit", "verify", "--org", head.orgId.uuidString, "--head",
                                       folder + "/head.json", "--keys", folder + "/keys.json"])
        #expect(cli.status == .exited(0), "\(cli.stdout)\(cli.stderr)")
    }
}
