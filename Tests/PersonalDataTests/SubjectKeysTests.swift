import Crypto
import Domain
@testable import EventStore
import Foundation
import Postgres
import Synchronization
import Testing

@Suite struct SubjectKeysTests {
    let keys = SubjectKeys(masterKey: SecureRandom.bytes(32))

    private func row(_ connection: Connection, org: UUID, subject: String) throws -> Row? {
        try connection.query("""
            SELECT wrapped_key, created_at, destroyed_at FROM subject_keys WHERE org_id = $1 AND subject_id = $2
            """, [.text(org.uuidString), .text(subject)]).first
    }

    @Test func twentyConcurrentFirstRequestsCreateOneKeyAndAllGetIt() throws {
        let org = UUID()
        let subject = "buyer-\(UUID())"
        let connections = try (0..<20).map { _ in try PersonalDataFixture.connection() }
        let results = Mutex<[Result<[UInt8], any Error>]>([])
        let ready = DispatchGroup()
        let gate = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for connection in connections {
            ready.enter()
            done.enter()
            Thread { [keys] in
                defer { done.leave() }
                ready.leave()
                gate.wait()
                let result = Result { () throws -> [UInt8] in
                    try connection.execute("BEGIN")
                    let state = try keys.keyFor(org: org, subject: subject, on: connection)
                    // Hold the transaction a moment, so later inserters wait on the conflict instead of seeing a row.
                    Thread.sleep(forTimeInterval: 0.05)
                    try connection.execute("COMMIT")
                    guard let key = state.key else { throw SubjectKeyError.invalidSubject }
                    return key.bytes
                }
                results.withLock { $0.append(result) }
            }.start()
        }
        ready.wait()
        for _ in connections { gate.signal() }
        #expect(done.wait(timeout: .now() + 60) == .success)

        let keysSeen = try results.withLock { try $0.map { try $0.get() } }
        #expect(keysSeen.count == 20)
        #expect(Set(keysSeen).count == 1)
        let check = try PersonalDataFixture.connection()
        let count = try check.query("SELECT count(*) AS n FROM subject_keys WHERE org_id = $1", [.text(org.uuidString)])
        #expect(try count.rows[0].int("n") == 1)
        let wrappedBefore = try row(check, org: org, subject: subject)?.bytes("wrapped_key")
        let again = try keys.keyFor(org: org, subject: subject, on: check)
        #expect(again.key?.bytes == keysSeen.first)
        #expect(try row(check, org: org, subject: subject)?.bytes("wrapped_key") == wrappedBefore)
        connections.forEach { $0.close() }
    }

    @Test func theStoredKeyIsWrappedNeverTheKeyItself() throws {
        let connection = try PersonalDataFixture.connection()
        let org = UUID()
        let key = try #require(try keys.keyFor(org: org, subject: "buyer-1", on: connection).key)
        let wrapped = try #require(try row(connection, org: org, subject: "buyer-1")?.bytes("wrapped_key"))
        #expect(wrapped.count == 12 + 32 + 16)
        #expect(!Hex.encode(wrapped).contains(Hex.encode(key.bytes)))
    }

    @Test func destroyingAKeyNullsItForGoodAndLaterRequestsAnswerDestroyed() throws {
        let connection = try PersonalDataFixture.connection()
        let org = UUID()
        _ = try keys.keyFor(org: org, subject: "buyer-1", on: connection)
        _ = try keys.keyFor(org: org, subject: "buyer-2", on: connection)

        try keys.destroy(org: org, subject: "buyer-1", on: connection)
        let stored = try #require(try row(connection, org: org, subject: "buyer-1"))
        #expect(stored.isNull("wrapped_key"))
        #expect(!stored.isNull("destroyed_at"))
        let firstDestroyedAt = stored["destroyed_at"]

        guard case .destroyed = try keys.keyFor(org: org, subject: "buyer-1", on: connection) else {
            Issue.record("a destroyed key was handed out or re-created")
            return
        }
        guard case .destroyed? = try keys.existingKey(org: org, subject: "buyer-1", on: connection) else {
            Issue.record("existingKey did not answer destroyed")
            return
        }
        try keys.destroy(org: org, subject: "buyer-1", on: connection)
        #expect(try row(connection, org: org, subject: "buyer-1")?["destroyed_at"] == firstDestroyedAt)
        // The other buyer keeps their key.
        #expect(try keys.keyFor(org: org, subject: "buyer-2", on: connection).key != nil)
    }

    @Test func destroyingASubjectWithoutAKeyStopsOneBeingCreatedLater() throws {
        let connection = try PersonalDataFixture.connection()
        let org = UUID()
        try keys.destroy(org: org, subject: "never-seen", on: connection)
        guard case .destroyed = try keys.keyFor(org: org, subject: "never-seen", on: connection) else {
            Issue.record("a key was created for a forgotten subject")
            return
        }
        #expect(try keys.seal("a@example.com", field: .email, org: org, subject: "never-seen", on: connection) == nil)
    }

    @Test func existingKeyNeverCreatesOne() throws {
        let connection = try PersonalDataFixture.connection()
        let org = UUID()
        #expect(try keys.existingKey(org: org, subject: "buyer-1", on: connection) == nil)
        #expect(try row(connection, org: org, subject: "buyer-1") == nil)
    }

    @Test func aKeyWrappedUnderAnotherMasterKeyIsAnErrorNotACrash() throws {
        let connection = try PersonalDataFixture.connection()
        let org = UUID()
        _ = try keys.keyFor(org: org, subject: "buyer-1", on: connection)
        let otherMaster = SubjectKeys(masterKey: SecureRandom.bytes(32))
        #expect(throws: SubjectKeyError.unwrapFailed(org: org, subject: "buyer-1")) {
            try otherMaster.keyFor(org: org, subject: "buyer-1", on: connection)
        }
        let sealed = PersonalData.seal("a@example.com", field: .email, org: org, subject: "buyer-1",
                                       key: SubjectKey(bytes: SecureRandom.bytes(32))!)
        #expect(throws: SubjectKeyError.self) {
            try otherMaster.reveal(sealed, field: .email, org: org, subject: "buyer-1", on: connection)
        }
    }

    @Test func aWrappedKeyCopiedToAnotherSubjectDoesNotUnwrap() throws {
        let connection = try PersonalDataFixture.connection()
        let org = UUID()
        _ = try keys.keyFor(org: org, subject: "victim", on: connection)
        _ = try keys.keyFor(org: org, subject: "attacker", on: connection)
        try connection.query("""
            UPDATE subject_keys SET wrapped_key = (SELECT wrapped_key FROM subject_keys
                WHERE org_id = $1 AND subject_id = 'victim')
            WHERE org_id = $1 AND subject_id = 'attacker'
            """, [.text(org.uuidString)])
        #expect(throws: SubjectKeyError.unwrapFailed(org: org, subject: "attacker")) {
            try keys.keyFor(org: org, subject: "attacker", on: connection)
        }
        let otherOrg = UUID()
        try connection.query("""
            INSERT INTO subject_keys (org_id, subject_id, wrapped_key)
            SELECT $2, subject_id, wrapped_key FROM subject_keys WHERE org_id = $1 AND subject_id = 'victim'
            """, [.text(org.uuidString), .text(otherOrg.uuidString)])
        #expect(throws: SubjectKeyError.unwrapFailed(org: otherOrg, subject: "victim")) {
            try keys.keyFor(org: otherOrg, subject: "victim", on: connection)
        }
    }

    @Test(arguments: ["", String(repeating: "x", count: 201), "nul\u{0}inside"])
    func aBadSubjectIdIsRefused(subject: String) throws {
        let connection = try PersonalDataFixture.connection()
        #expect(throws: SubjectKeyError.invalidSubject) {
            try keys.keyFor(org: UUID(), subject: subject, on: connection)
        }
    }
}
