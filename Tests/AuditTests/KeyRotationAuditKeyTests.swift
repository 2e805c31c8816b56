import Crypto
import Domain
import EventStore
import Foundation
import Postgres
import Service
import Testing
import TestSupport
import Workers

/// The documented audit-key rotation (docs/operations.md): a new `HANDOFF_AUDIT_SIGNING_KEY` on the checkpoint
/// workers; heads signed before keep verifying, the new key is listed beside the old one.
@Suite struct KeyRotationAuditKeyTests {
    /// The signer a `checkpoint` process started with `HANDOFF_AUDIT_SIGNING_KEY=seed` uses.
    func signer(seed: [UInt8]) throws -> ChainHeadSigner {
        let configuration = try Configuration(environment: ["HANDOFF_AUDIT_SIGNING_KEY": Base64URL.encode(seed)])
        let seed = try #require(configuration.auditSigningKey).bytes
        return try #require(ChainHeadSigner(seed: seed))
    }

    @Test func headsOfTheOldKeyKeepVerifyingAndBothKeysAreListedAfterARotation() throws {
        let fixture = try AuditFixture.migrated()
        let org = UUID()
        let store = fixture.store()
        let clock = TestClock()
        let pool = Pool(configuration: PostgresConfiguration(url: fixture.database.appURL, poolSize: 2))
        let oldSigner = try signer(seed: SecureRandom.bytes(32))
        let newSigner = try signer(seed: SecureRandom.bytes(32))
        #expect(oldSigner.keyId != newSigner.keyId)

        try ChainHeads.append(store, org: org, count: 3)
        #expect(try Checkpoint(pool: pool, signer: oldSigner, interval: 60, clock: clock.function).signDue() == 1)
        let owner = try fixture.ownerConnection()
        let oldHead = try #require(try ChainHeadStore.latest(org: org, on: owner))
        let pinnedOld = try ChainHeads.file(AuditKey.document(try ChainHeadStore.keys(on: owner)).canonicalText)

        // The rotation: the checkpoint restarts with the new seed.
        try ChainHeads.append(store, org: org, count: 2)
        clock.advance(60)
        #expect(try Checkpoint(pool: pool, signer: newSigner, interval: 60, clock: clock.function).signDue() == 1)
        let newHead = try #require(try ChainHeadStore.latest(org: org, on: owner))
        #expect(oldHead.keyId == oldSigner.keyId && newHead.keyId == newSigner.keyId && newHead.orgSeq == 5)

        let listed = try fixture.handoff(["audit", "keys"])
        #expect(listed.status == .exited(0), "\(listed.stderr)")
        let keys = try AuditKey.keys(fromDocument: try EventJSON.parse(listed.stdout))
        #expect(keys.map(\.id) == [oldSigner.keyId, newSigner.keyId], "the first used first")
        #expect(AuditKey.verify(oldHead, keys: keys) == .valid && AuditKey.verify(newHead, keys: keys) == .valid)
        let pinnedBoth = try ChainHeads.file(listed.stdout, name: "keys")

        for head in [oldHead, newHead] {
            let file = try ChainHeads.file(head.json.canonicalText, name: "head")
            for pinned in [[], ["--keys", pinnedBoth]] {
                let verified = try fixture.handoff(["audit", "verify", "--org", org.uuidString, "--head", file]
                                                   + pinned)
                #expect(verified.status == .exited(0), "\(verified.stdout)\(verified.stderr)")
            }
        }
        // An auditor who kept the old key list has to pin the new key before a new head verifies.
        let newFile = try ChainHeads.file(newHead.json.canonicalText, name: "head")
        let unpinned = try fixture.handoff(["audit", "verify", "--org", org.uuidString, "--head", newFile,
                                            "--keys", pinnedOld])
        #expect(unpinned.status == .exited(1))
        #expect(unpinned.stdout.contains("the signed head's key_id \(newHead.keyId) is not an audit key"))
        // The Python verifier agrees with the kept key list of both keys.
        let export = try fixture.handoff(["audit", "export", "--org", org.uuidString, "--format", "jsonl"])
        #expect(export.status == .exited(0), "\(export.stderr)")
        let script = HandoffBinary.packageRoot() + "/docs/audit_verify.py"
        for head in [oldHead, newHead] {
            let file = try ChainHeads.file(head.json.canonicalText, name: "head")
            let python = try CommandOutcome.run(["python3", script, "--keys", pinnedBoth, "--head", file,
                                                 export.stdoutPath])
            #expect(python.status == .exited(0), "\(python.stdout)\(python.stderr)")
        }
    }
}
