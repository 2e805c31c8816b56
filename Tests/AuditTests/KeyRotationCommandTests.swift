import Crypto
import Domain
import EventStore
import Foundation
import Postgres
import Testing
import TestSupport

/// `handoff keys rotate master` and `handoff keys status`, run as the binary against the real Postgres.
@Suite struct KeyRotationCommandTests {
    let oldKey = SecureRandom.bytes(32)
    let newKey = SecureRandom.bytes(32)
    var oldID: String { MasterKeyRing.keyID(of: oldKey) }
    var newID: String { MasterKeyRing.keyID(of: newKey) }

    /// The fixture's environment during a rotation: the new key wraps, the old one is previous.
    func rotating(_ fixture: AuditFixture) -> [String: String] {
        fixture.environment.merging([
            "HANDOFF_MASTER_KEY": Base64URL.encode(newKey), "HANDOFF_MASTER_KEY_PREVIOUS": Base64URL.encode(oldKey),
        ]) { $1 }
    }

    @Test func rotateMasterRewrapsEveryKeyWithProgressAndASummaryAndStatusThenShowsNoneLeft() throws {
        let fixture = try AuditFixture.migrated()
        let store = fixture.store()
        let buyers = try SealedBuyers.create(45, orgs: [UUID(), UUID()], keys: SubjectKeys(masterKey: oldKey),
                                            store: store)
        let environment = rotating(fixture)

        let before = try fixture.handoff(["keys", "status"], environment: environment)
        #expect(before.status == .exited(0), "\(before.stderr)")
        #expect(before.stdout == #"{"currentKeyId":""# + newID + #"","destroyedKeys":0,"liveKeys":{""# + oldID
            + #"":45},"previousKeyIds":[""# + oldID + #""],"remaining":45}"# + "\n")

        let rotated = try fixture.handoff(["keys", "rotate", "master", "--batch-size", "7"], environment: environment)
        #expect(rotated.status == .exited(0), "\(rotated.stderr)")
        #expect(rotated.stdout == #"{"complete":true,"masterKeyId":""# + newID
            + #"","remaining":{},"rewrapped":45,"skipped":0,"unopenable":0}"# + "\n")
        #expect(rotated.stderr.contains("rotate master key: 45/45 keys"), "\(rotated.stderr)")

        let after = try fixture.handoff(["keys", "status"], environment: environment)
        #expect(after.stdout.contains(#""liveKeys":{""# + newID + #"":45}"#), "\(after.stdout)")
        #expect(after.stdout.contains(#""remaining":0}"#))
        #expect(try buyers.openCount(with: SubjectKeys(masterKey: newKey), store: store) == 45)
    }

    @Test func sigintStopsAfterABatchWithExit130AndTheSameCommandResumes() throws {
        let fixture = try AuditFixture.migrated()
        let store = fixture.store()
        let buyers = try SealedBuyers.create(3000, orgs: [UUID(), UUID(), UUID()],
                                            keys: SubjectKeys(masterKey: oldKey), store: store)
        let owner = try fixture.ownerConnection()
        let child = try ChildProcess([try HandoffBinary.path(), "keys", "rotate", "master", "--batch-size", "1"],
                                     environment: rotating(fixture))
        while try (MasterKeyRotation.liveRows(on: owner)[newID] ?? 0) < 20 { Thread.sleep(forTimeInterval: 0.005) }
        child.signal(SIGINT)
        #expect(try child.wait(timeout: 60) == .exited(130), "\(child.output())")
        #expect(child.output().contains("stopped by SIGINT after "))
        #expect(child.output().contains("run the same command again to resume"))
        let stopped = try MasterKeyRotation.liveRows(on: owner)
        let done = stopped[newID] ?? 0
        #expect(done >= 20 && stopped[oldID] == 3000 - done, "\(stopped)")
        #expect(try buyers.openCount(with: SubjectKeys(masterKey: newKey), store: store) == done)

        let resumed = try fixture.handoff(["keys", "rotate", "master"], environment: rotating(fixture))
        #expect(resumed.status == .exited(0), "\(resumed.stderr)")
        #expect(resumed.stdout.contains(#""rewrapped":\#(3000 - done),"#), "\(resumed.stdout)")
        #expect(try MasterKeyRotation.liveRows(on: owner) == [newID: 3000])
        #expect(try buyers.openCount(with: SubjectKeys(masterKey: newKey), store: store) == 3000)
    }

    @Test func aKeyNoConfiguredMasterKeyOpensExits1NamingItAndBadInputExits2() throws {
        let fixture = try AuditFixture.migrated()
        let org = UUID()
        let stranger = try SealedBuyers.create(1, orgs: [org], keys: SubjectKeys(masterKey: SecureRandom.bytes(32)),
                                               store: fixture.store())
        let environment = rotating(fixture)
        let partial = try fixture.handoff(["keys", "rotate", "master"], environment: environment)
        #expect(partial.status == .exited(1))
        #expect(partial.stdout.contains(#""complete":false"#) && partial.stdout.contains(#""unopenable":1"#))
        #expect(partial.stderr.contains("org \(org.uuidString.lowercased()) subject \(stranger.buyers[0].subject): "
            + "no configured master key opens its data key"), "\(partial.stderr)")
        #expect(partial.stderr.contains("not complete"))

        let malformedPrevious = environment.merging([
            "HANDOFF_MASTER_KEY_PREVIOUS": "\(Base64URL.encode(oldKey)),abc",
        ]) { $1 }
        let refusals: [([String], [String: String], String)] = [
            (["keys", "rotate", "pass"], environment, "only master is rotated by a command"),
            (["keys", "rotate", "master", "--batch-size", "0"], environment, "--batch-size must be a whole number"),
            (["keys", "rotate"], environment, "missing key to rotate"),
            (["keys"], environment, "missing subcommand"),
            (["keys", "status", "--org"], environment, "unknown argument \"--org\""),
            (["keys", "status"], environment.filter { $0.key != "HANDOFF_MASTER_KEY" },
             "HANDOFF_MASTER_KEY is required"),
            (["keys", "status"], malformedPrevious,
             "HANDOFF_MASTER_KEY_PREVIOUS: item 2 must be base64url of exactly 32 bytes"),
        ]
        for (arguments, environment, message) in refusals {
            let outcome = try fixture.handoff(arguments, environment: environment)
            #expect(outcome.status == .exited(2), "\(arguments)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
            #expect(!outcome.stderr.contains(Base64URL.encode(oldKey)))
        }
    }
}
