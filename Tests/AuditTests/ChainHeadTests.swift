import Crypto
import Dispatch
import Domain
import EventStore
import Foundation
import Postgres
import Service
import Synchronization
import Testing
import TestSupport
import Workers

/// Signed chain heads (issue 16 §1): the `checkpoint` role signs each org whose history moved, at most once per
/// interval, into the append-only `chain_heads`; `handoff audit keys|head` print them; `handoff audit verify --head`
/// checks the stored history against a head kept outside.
@Suite struct ChainHeadTests {
    @Test func theCheckpointSignsEachOrgWhoseHistoryMovedAtMostOncePerInterval() throws {
        let fixture = try AuditFixture.migrated()
        let store = fixture.store()
        let (a, b, quiet) = (UUID(), UUID(), UUID())
        try ChainHeads.append(store, org: a, count: 3)
        try ChainHeads.append(store, org: b, count: 2)
        let clock = TestClock()
        let checkpoint = fixture.checkpoint(interval: 60, clock: clock)
        #expect(try checkpoint.signDue() == 2)
        let owner = try fixture.ownerConnection()
        #expect(try ChainHeads.heads(a, on: owner).map(\.orgSeq) == [3])
        #expect(try ChainHeads.heads(b, on: owner).map(\.orgSeq) == [2])
        #expect(try ChainHeads.heads(quiet, on: owner).isEmpty)

        try ChainHeads.append(store, org: a, count: 2)
        #expect(try checkpoint.signDue() == 0)
        clock.advance(59)
        #expect(try checkpoint.signDue() == 0, "a's head moved, but its last head is not a minute old")
        clock.advance(1)
        #expect(try checkpoint.signDue() == 1, "a once more; b did not move")
        clock.advance(600)
        #expect(try checkpoint.signDue() == 0, "nothing moved")
        let heads = try ChainHeads.heads(a, on: owner)
        #expect(heads.map(\.orgSeq) == [3, 5])
        #expect(heads.map(\.signedAt) == ["2030-03-17T17:46:40.000000Z", "2030-03-17T17:47:40.000000Z"])

        // Each head signs the six members with the audit key, and names the event's hash and time exactly.
        let history = try store.readHistory(org: a)
        let key = AuditKey(publicKey: ChainHeads.signer.key.publicKey, firstUsedAt: "")
        for head in heads {
            #expect(head.keyId == ChainHeads.signer.keyId && head.orgId == a)
            #expect(head.hash == history[head.orgSeq - 1].hash)
            #expect(head.recordedAt == history[head.orgSeq - 1].recordedAt)
            #expect(AuditKey.verify(head, keys: [key]) == .valid)
            #expect(head.signedBytes == Array((#"{"hash":""# + Hex.encode(head.hash) + #"","key_id":""# + head.keyId
                + #"","org_id":""# + a.uuidString.lowercased() + #"","org_seq":\#(head.orgSeq),"recorded_at":""#
                + head.recordedAt + #"","signed_at":""# + head.signedAt + #""}"#).utf8))
            var forged = head
            forged.orgSeq += 1
            #expect(AuditKey.verify(forged, keys: [key]) == .badSignature)
            #expect(AuditKey.verify(head, keys: []) == .unknownKey)
            #expect(try ChainHead(json: head.json) == head)
        }
        #expect(try ChainHeadStore.keys(on: owner).map(\.id) == [ChainHeads.signer.keyId])
        #expect(ChainHeads.signer.keyId == String(Hex.encode(SHA256.hash(ChainHeads.signer.key.publicKey.raw))
            .prefix(16)))
    }

    @Test func checkpointsRunningAtOnceSignEachOrgOnce() throws {
        let fixture = try AuditFixture.migrated()
        let store = fixture.store()
        let orgs = (0..<12).map { _ in UUID() }
        for org in orgs { try ChainHeads.append(store, org: org, count: 2) }
        let clock = TestClock()
        let checkpoints = (0..<4).map { _ in fixture.checkpoint(clock: clock) }
        let signed = Mutex(0)
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: checkpoints.count) { index in
            do {
                let count = try checkpoints[index].signDue()
                signed.withLock { $0 += count }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(signed.withLock { $0 } == orgs.count)
        let count = try fixture.ownerConnection().query("SELECT count(*) AS n FROM chain_heads").rows[0].int("n")
        #expect(count == orgs.count)
    }

    @Test func chainHeadsAndAuditKeysAreAppendOnlyEvenForTheOwner() throws {
        let fixture = try AuditFixture.migrated()
        try ChainHeads.append(fixture.store(), org: UUID(), count: 1)
        #expect(try fixture.checkpoint().signDue() == 1)
        let owner = try fixture.ownerConnection()
        for statement in ["UPDATE chain_heads SET org_seq = org_seq + 1", "DELETE FROM chain_heads",
                          "TRUNCATE chain_heads", "UPDATE audit_keys SET first_used_at = now()",
                          "DELETE FROM audit_keys"] {
            let error = #expect(throws: PostgresError.self, "\(statement)") { try owner.execute(statement) }
            #expect(error?.message.contains("is append-only") == true, "\(statement)")
        }
        let app = try fixture.appConnection()
        let refused = #expect(throws: PostgresError.self) { try app.execute("DELETE FROM chain_heads") }
        #expect(refused?.sqlState == "42501")
        #expect(try owner.query("SELECT count(*) AS n FROM chain_heads").rows[0].int("n") == 1)
    }

    @Test func auditKeysAndHeadPrintTheKeyAndTheLatestSignedHead() throws {
        let fixture = try AuditFixture.migrated()
        let (org, empty) = (UUID(), UUID())
        try ChainHeads.append(fixture.store(), org: org, count: 4)
        let clock = TestClock()
        let checkpoint = fixture.checkpoint(clock: clock)
        try checkpoint.signDue()
        try ChainHeads.append(fixture.store(), org: org, count: 2)
        clock.advance(60)
        try checkpoint.signDue()

        let keys = try fixture.handoff(["audit", "keys"])
        #expect(keys.status == .exited(0), "\(keys.stderr)")
        let publicKey = ChainHeads.signer.key.publicKey
        #expect(keys.stdout == #"{"keys":[{"algorithm":"ed25519","first_used_at":"2030-03-17T17:46:40.000000Z","#
            + #""key_id":""# + ChainHeads.signer.keyId + #"","public_key":""# + Hex.encode(publicKey.raw)
            + #"","public_key_pem":"# + EventJSON.string(publicKey.pem).canonicalText + "}]}\n")

        let head = try fixture.handoff(["audit", "head", "--org", org.uuidString])
        #expect(head.status == .exited(0), "\(head.stderr)")
        let printed = try ChainHead(json: try EventJSON.parse(head.stdout.trimmingCharacters(in: .newlines)))
        #expect(printed.orgSeq == 6 && printed.signedAt == "2030-03-17T17:47:40.000000Z")
        #expect(head.stdout == printed.json.canonicalText + "\n")
        let parsedKeys = try AuditKey.keys(fromDocument: try EventJSON.parse(keys.stdout))
        #expect(AuditKey.verify(printed, keys: parsedKeys) == .valid)

        let none = try fixture.handoff(["audit", "head", "--org", empty.uuidString])
        #expect(none.status == .exited(1))
        #expect(none.stderr.contains("has no signed head yet"))
    }

    @Test func verifyWithAKeptHeadCatchesARecomputedChainAndACutOffTailThatTheChainAloneCannot() throws {
        let fixture = try AuditFixture.migrated()
        let org = UUID()
        let store = fixture.store()
        try ChainHeads.append(store, org: org, count: 8)
        let clock = TestClock()
        let checkpoint = fixture.checkpoint(clock: clock)
        try checkpoint.signDue()
        try ChainHeads.append(store, org: org, count: 4)
        let owner = try fixture.ownerConnection()
        let kept = try #require(try ChainHeadStore.latest(org: org, on: owner))
        #expect(kept.orgSeq == 8)
        let headFile = try ChainHeads.file(kept.json.canonicalText + "\n", name: "head")
        let keysFile = try ChainHeads.file(AuditKey.document(try ChainHeadStore.keys(on: owner)).canonicalText)
        let orgText = org.uuidString.lowercased()

        let intact = try fixture.handoff(["audit", "verify", "--org", org.uuidString, "--head", headFile])
        #expect(intact.status == .exited(0), "\(intact.stdout)\(intact.stderr)")
        #expect(intact.stdout.contains("verified 1 org, 12 events"))
        #expect(intact.stdout.contains("signed head org_seq 8 (key \(kept.keyId), signed at \(kept.signedAt)): the "
            + "history reaches it with the same hash \(Hex.encode(kept.hash))"))
        let pinned = try fixture.handoff(["audit", "verify", "--org", org.uuidString, "--head", headFile,
                                          "--keys", keysFile])
        #expect(pinned.status == .exited(0), "\(pinned.stdout)\(pinned.stderr)")

        // The event at org_seq 5 edited and every hash after it recomputed: the chain verifies, the head does not.
        let admin = try fixture.adminConnection()
        try ChainHeads.recompute(org, from: 5, admin: admin, owner: owner) { _ in .object(["amount": .integer(1)]) }
        #expect(try fixture.handoff(["audit", "verify", "--org", org.uuidString]).status == .exited(0))
        let rewritten = try fixture.handoff(["audit", "verify", "--org", org.uuidString, "--head", headFile])
        #expect(rewritten.status == .exited(1))
        #expect(rewritten.stdout.contains("BROKEN org \(orgText) at org_seq 8: the history's hash "))
        #expect(rewritten.stdout.contains("is not the signed head's \(Hex.encode(kept.hash)) (the history was "
            + "rewritten)"))

        // The tail cut before the head: the chain and the counter row agree, the head says what is missing.
        try ChainHeads.cut(org, after: 6, admin: admin)
        #expect(try fixture.handoff(["audit", "verify", "--org", org.uuidString]).status == .exited(0))
        let cut = try fixture.handoff(["audit", "verify", "--org", org.uuidString, "--head", headFile])
        #expect(cut.status == .exited(1))
        #expect(cut.stdout.contains("BROKEN org \(orgText) at org_seq 7: the history ends at org_seq 6, before the "
            + "signed head's org_seq 8 (its tail was cut off)"))
    }

    @Test func verifyRefusesAHeadThatWasAlteredOrIsAnotherOrgsOrByAnUnknownKey() throws {
        let fixture = try AuditFixture.migrated()
        let (org, other) = (UUID(), UUID())
        try ChainHeads.append(fixture.store(), org: org, count: 3)
        try ChainHeads.append(fixture.store(), org: other, count: 3)
        try fixture.checkpoint().signDue()
        let owner = try fixture.ownerConnection()
        let head = try #require(try ChainHeadStore.latest(org: org, on: owner))
        let orgText = org.uuidString.lowercased()

        var altered = head
        altered.orgSeq = 2
        altered.hash = try #require(try EventReader.readHistory(org: org, fromSeq: 2, limit: 1, on: owner).first).hash
        let alteredFile = try ChainHeads.file(altered.json.canonicalText, name: "altered")
        let broken = try fixture.handoff(["audit", "verify", "--org", org.uuidString, "--head", alteredFile])
        #expect(broken.status == .exited(1))
        #expect(broken.stdout.contains("BROKEN org \(orgText) at org_seq 2: the signed head's signature does not "
            + "verify (the head was altered)"))

        let otherHead = try #require(try ChainHeadStore.latest(org: other, on: owner))
        let otherFile = try ChainHeads.file(otherHead.json.canonicalText, name: "other")
        let foreign = try fixture.handoff(["audit", "verify", "--org", org.uuidString, "--head", otherFile])
        #expect(foreign.status == .exited(2))
        #expect(foreign.stderr.contains("--head is a head of org \(other.uuidString.lowercased()), not of --org"))

        let emptyKeys = try ChainHeads.file(#"{"keys":[]}"#, name: "keys")
        let headFile = try ChainHeads.file(head.json.canonicalText, name: "head")
        let unknown = try fixture.handoff(["audit", "verify", "--org", org.uuidString, "--head", headFile,
                                           "--keys", emptyKeys])
        #expect(unknown.status == .exited(1))
        #expect(unknown.stdout.contains("the signed head's key_id \(head.keyId) is not an audit key"))

        let notJSON = try ChainHeads.file("not json", name: "bad")
        let unreadable = try fixture.handoff(["audit", "verify", "--org", org.uuidString, "--head", notJSON])
        #expect(unreadable.status == .exited(2))
        #expect(unreadable.stderr.contains("--head: \(notJSON) is not JSON"))
        let wrongKeys = #"{"keys":[{"key_id":"0000000000000000","public_key":""#
            + Hex.encode(ChainHeads.signer.key.publicKey.raw) + #""}]}"#
        let mislabelled = try fixture.handoff(["audit", "verify", "--org", org.uuidString, "--head", headFile,
                                               "--keys", try ChainHeads.file(wrongKeys)])
        #expect(mislabelled.status == .exited(2))
        #expect(mislabelled.stderr.contains("keys[0].key_id is not the id of its public_key"))
    }

    /// A mutation test found that deleting the prev_hash check of `AuditVerifier` left the suite green: the hash
    /// check uses the running hash, so a stored `prev_hash` changed behind the trigger is caught only by that check.
    @Test func aPrevHashChangedBehindTheTriggerIsNamedByItsOrgSeq() throws {
        let fixture = try AuditFixture.migrated()
        let (tampered, intact) = (UUID(), UUID())
        try ChainHeads.append(fixture.store(), org: tampered, count: 6)
        try ChainHeads.append(fixture.store(), org: intact, count: 2)
        let admin = try fixture.adminConnection()
        try admin.execute("SET session_replication_role = replica")
        try admin.query("UPDATE events SET prev_hash = decode(repeat('11', 32), 'hex') WHERE org_id = $1::uuid "
                        + "AND org_seq = 4", [.text(tampered.uuidString)])
        try admin.execute("RESET session_replication_role")
        let broken = try fixture.handoff(["audit", "verify"])
        #expect(broken.status == .exited(1))
        #expect(broken.stdout == "BROKEN org \(tampered.uuidString.lowercased()) at org_seq 4: prev_hash is not the "
            + "previous event's hash\n1 of 2 orgs broken\n")
        #expect(try AuditVerifier.verify(org: tampered, on: fixture.ownerConnection())
            == [ChainBreak(org: tampered, orgSeq: 4, reason: .previousHashMismatch)])
    }
}
