import Crypto
import Domain
import EventStore
import Foundation
import Postgres
import Testing

/// `MasterKeyRotation` (`handoff keys rotate master`) against the real Postgres: online, batched, resumable, and the
/// old master key is needed exactly until the rotation completed (docs/operations.md).
@Suite struct KeyRotationMasterTests {
    let oldKey = SecureRandom.bytes(32)
    let newKey = SecureRandom.bytes(32)
    var old: SubjectKeys { SubjectKeys(masterKeys: MasterKeyRing(current: oldKey)) }
    var rolling: SubjectKeys { SubjectKeys(masterKeys: MasterKeyRing(current: newKey, previous: [oldKey])) }
    var newOnly: SubjectKeys { SubjectKeys(masterKeys: MasterKeyRing(current: newKey)) }
    var oldID: String { MasterKeyRing.keyID(of: oldKey) }
    var newID: String { MasterKeyRing.keyID(of: newKey) }

    @Test func rotatingWhileReadsAndNewBuyersContinueLosesNothingAndThenTheOldKeyIsNotNeeded() throws {
        let fixture = try AuditFixture.migrated()
        let store = fixture.store(poolSize: 6)
        let orgs = [UUID(), UUID(), UUID()]
        let buyers = try SealedBuyers.create(600, orgs: orgs, keys: old, store: store)
        let owner = try fixture.ownerConnection()
        // Rows wrapped before migration 0025 name no master key: 50 of them, still under the old key.
        let legacy = Array(buyers.buyers.prefix(50))
        for buyer in legacy {
            try owner.query("UPDATE subject_keys SET master_key_id = NULL WHERE org_id = $1::uuid AND subject_id = $2",
                            [.text(buyer.org.uuidString), .text(buyer.subject)])
        }
        // An erased buyer: nothing to re-wrap, and it must stay erased.
        let erased = buyers.buyers[100]
        try old.destroy(org: erased.org, subject: erased.subject, on: owner)
        let live = SealedBuyers(buyers: buyers.buyers.filter { $0.subject != erased.subject })
        #expect(try MasterKeyRotation.liveRows(on: owner) == [oldID: 549, MasterKeyRotation.unnamedKey: 50])

        // Every process now runs with the new key and the old one as previous; readers and new buyers go on.
        let readers = ContinuousReaders(threads: 3, buyers: live, keys: rolling, store: store)
        let newcomers = Shared<[SealedBuyers.Buyer]>([])
        let writing = Shared(true)
        let writer = Thread { [rolling] in
            while writing.value {
                if let made = try? SealedBuyers.create(1, orgs: [orgs[0]], keys: rolling, store: store, tag: "new") {
                    newcomers.update { $0 += made.buyers }
                }
            }
        }
        writer.start()
        while readers.readCount < 200 { Thread.sleep(forTimeInterval: 0.01) }

        var seen: [MasterKeyRotation.Progress] = []
        let report = try MasterKeyRotation(masterKeys: rolling.masterKeys, batchSize: 50).run(on: owner, progress: {
            seen.append($0)
        })
        writing.update { $0 = false }
        while writer.isExecuting { Thread.sleep(forTimeInterval: 0.01) }
        let (reads, failures) = readers.finish()

        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(reads > 200)
        #expect(report.isComplete && !report.stopped)
        #expect(report.progress.rewrapped == 599 && report.progress.skipped == 0 && report.progress.unopenable == 0)
        #expect(seen.first?.total == 599 && seen.first?.done == 0)
        #expect(seen.count == 13, "one report before the first batch and one after each of the 12 batches")
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.done <= $1.done })
        let added = newcomers.value
        #expect(!added.isEmpty)
        #expect(try MasterKeyRotation.liveRows(on: owner) == [newID: 599 + added.count])

        // The old key is no longer needed: everything opens under the new key alone, old and new buyers alike.
        let everyone = SealedBuyers(buyers: live.buyers + added)
        #expect(try everyone.openCount(with: newOnly, store: store) == everyone.buyers.count)
        #expect(try SealedBuyers(buyers: [erased]).reveal(with: newOnly, store: store) == [.erased])
        // And the old key alone opens nothing any more: every row was re-wrapped.
        #expect(try live.reveal(with: old, store: store).allSatisfy { $0 == nil })
    }

    @Test func anInterruptedRotationResumesWhereItStoppedAndTheOldKeyIsNeededUntilItCompletes() throws {
        let fixture = try AuditFixture.migrated()
        let store = fixture.store()
        let buyers = try SealedBuyers.create(300, orgs: [UUID(), UUID()], keys: old, store: store)
        let owner = try fixture.ownerConnection()
        let rotation = MasterKeyRotation(masterKeys: rolling.masterKeys, batchSize: 40)

        var batches = 0
        let first = try rotation.run(on: owner, shouldStop: { batches == 3 }, progress: { progress in
            if progress.done > 0 { batches += 1 }
        })
        #expect(first.stopped && !first.isComplete)
        #expect(first.progress.rewrapped == 120)
        #expect(first.remaining == [oldID: 180])
        // Half-way, the new key alone opens only the re-wrapped buyers: the old key is still needed.
        #expect(try buyers.openCount(with: newOnly, store: store) == 120)
        #expect(try buyers.openCount(with: rolling, store: store) == 300)

        // A crash in the middle of a batch: the batch's transaction rolls back, nothing is half done.
        try owner.execute("BEGIN")
        try owner.execute("UPDATE subject_keys SET master_key_id = '\(newID)' WHERE master_key_id = '\(oldID)'")
        try owner.execute("ROLLBACK")
        #expect(try MasterKeyRotation.liveRows(on: owner) == [oldID: 180, newID: 120])

        var resumedTotal = 0
        let second = try rotation.run(on: owner, progress: { resumedTotal = $0.total })
        #expect(resumedTotal == 180, "the second run starts from the rows still to do")
        #expect(second.isComplete && second.progress.rewrapped == 180)
        #expect(try buyers.openCount(with: newOnly, store: store) == 300)

        // Run again on a finished rotation: nothing to do.
        let third = try rotation.run(on: owner)
        #expect(third.isComplete && third.progress.done == 0 && third.progress.total == 0)
    }

    @Test func aKeyErasedWhileTheRotationWaitsOnItStaysErased() throws {
        let fixture = try AuditFixture.migrated()
        let store = fixture.store()
        let buyers = try SealedBuyers.create(30, orgs: [UUID()], keys: old, store: store)
        let target = buyers.buyers[17]
        // The erasure holds the row's lock, uncommitted, while the rotation reaches that row.
        let eraser = try fixture.ownerConnection()
        try eraser.execute("BEGIN")
        try old.destroy(org: target.org, subject: target.subject, on: eraser)
        let result = Shared<Result<MasterKeyRotation.Report, any Error>?>(nil)
        let ownerURL = fixture.database.ownerURL
        let masterKeys = rolling.masterKeys
        let rotating = Thread {
            let outcome = Result { () throws -> MasterKeyRotation.Report in
                let connection = try Connection(configuration: PostgresConfiguration(url: ownerURL))
                defer { connection.close() }
                return try MasterKeyRotation(masterKeys: masterKeys, batchSize: 100).run(on: connection)
            }
            result.update { $0 = outcome }
        }
        rotating.start()
        Thread.sleep(forTimeInterval: 1)
        #expect(result.value == nil, "the rotation waits on the erasure's row lock")
        try eraser.execute("COMMIT")
        while result.value == nil { Thread.sleep(forTimeInterval: 0.01) }
        let report = try #require(try result.value?.get())
        #expect(report.isComplete)
        #expect(report.progress.rewrapped == 29 && report.progress.skipped == 1)
        let opened = try buyers.reveal(with: newOnly, store: store)
        #expect(opened[17] == .erased)
        for (index, buyer) in buyers.buyers.enumerated() where index != 17 {
            #expect(opened[index] == .value(buyer.email))
        }
    }

    @Test func aRowNoConfiguredKeyOpensIsLeftAsItIsAndTheRotationIsNotComplete() throws {
        let fixture = try AuditFixture.migrated()
        let store = fixture.store()
        let stranger = SecureRandom.bytes(32)
        let strangers = try SealedBuyers.create(2, orgs: [UUID()], keys: SubjectKeys(masterKey: stranger),
                                                store: store)
        let buyers = try SealedBuyers.create(10, orgs: [UUID()], keys: old, store: store)
        let owner = try fixture.ownerConnection()
        let report = try MasterKeyRotation(masterKeys: rolling.masterKeys, batchSize: 4).run(on: owner)
        #expect(!report.isComplete)
        #expect(report.progress.rewrapped == 10 && report.progress.unopenable == 2)
        #expect(report.remaining == [MasterKeyRing.keyID(of: stranger): 2])
        #expect(Set(report.unopenableRows.map(\.subject)) == Set(strangers.buyers.map(\.subject)))
        #expect(try buyers.openCount(with: newOnly, store: store) == 10)
        #expect(try strangers.openCount(with: SubjectKeys(masterKey: stranger), store: store) == 2)
    }

    @Test func aKeyIDIsAOneWayFunctionOfTheKeyAndTheRingKeepsEachKeyOnce() {
        let ring = MasterKeyRing(current: newKey, previous: [oldKey, newKey, oldKey])
        #expect(ring.ids == [newID, oldID])
        #expect(newID.count == 16 && newID.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(newID != oldID)
        #expect(SubjectKeys(masterKey: oldKey).masterKeys.current.id == oldID)
    }
}
