import Crypto
import Domain
import EventStore
import Foundation
import Postgres
import Synchronization
import TestSupport
import Workers

/// A clock a test moves by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_900_000_000)) { current = Mutex(start) }

    var now: Date { current.withLock { $0 } }
    func advance(_ seconds: Double) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
    var function: @Sendable () -> Date { { [self] in now } }
}

/// The audit key of the chain-head tests, and how they sign, append and tamper.
enum ChainHeads {
    /// A fixed Ed25519 seed, so that the key and its id are the same in every run.
    static let seed = [UInt8](repeating: 7, count: 32)
    static let signer = ChainHeadSigner(seed: seed)!
    /// The seed as `HANDOFF_AUDIT_SIGNING_KEY` takes it.
    static let seedText = Base64URL.encode(seed)

    /// Appends `count` payments to `org`'s log.
    static func append(_ store: EventLog, org: UUID, count: Int) throws {
        for number in 0..<count {
            try store.append(org: org, stream: "payment-\(UUID().uuidString)", expectedVersion: .any,
                             events: [NewEvent(type: "PaymentRecorded",
                                               data: .object(["amount": .integer(Int64(1000 + number))]))],
                             metadata: auditMetadata)
        }
    }

    /// The heads `org` has, oldest first (as the owner sees them).
    static func heads(_ org: UUID, on connection: Connection) throws -> [ChainHead] {
        try ChainHeadStore.page(org: org, after: 0, limit: 1000, on: connection)
    }

    /// Writes `text` to a new file in the scratch folder; returns its path.
    static func file(_ text: String, name: String = "file") throws -> String {
        let path = try TestEnvironment.scratchFolder() + "/\(name)-\(UUID().uuidString)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Rewrites `org`'s history behind the append-only trigger (as the superuser): `edit` changes the data of the
    /// event at `orgSeq`, then every hash from there on is recomputed, and the counter row follows — a history that
    /// verifies on its own.
    static func recompute(_ org: UUID, from orgSeq: Int, admin: Connection, owner: Connection,
                          edit: (EventJSON) -> EventJSON) throws {
        let history = try EventReader.readHistory(org: org, on: owner)
        var previous = orgSeq == 1 ? EventChain.genesisHash : history[orgSeq - 2].hash
        try admin.execute("SET session_replication_role = replica")
        for var event in history[(orgSeq - 1)...] {
            if event.orgSeq == orgSeq { event.data = edit(event.data) }
            let hash = EventChain.hash(previous: previous, canonical: event.canonicalBytes)
            try admin.query("""
                UPDATE events SET data = $3::jsonb, prev_hash = $4, hash = $5
                WHERE org_id = $1::uuid AND org_seq = $2::bigint
                """, [.text(org.uuidString), .int(event.orgSeq), .text(event.data.canonicalText), .bytea(previous),
                      .bytea(hash)])
            previous = hash
        }
        try admin.query("UPDATE event_orgs SET last_hash = $2 WHERE org_id = $1::uuid",
                        [.text(org.uuidString), .bytea(previous)])
        try admin.execute("RESET session_replication_role")
    }

    /// Deletes `org`'s events after `orgSeq` behind the trigger and moves the counter row back: a cut-off tail that
    /// verifies on its own.
    static func cut(_ org: UUID, after orgSeq: Int, admin: Connection) throws {
        try admin.execute("SET session_replication_role = replica")
        try admin.query("DELETE FROM events WHERE org_id = $1::uuid AND org_seq > $2::bigint",
                        [.text(org.uuidString), .int(orgSeq)])
        try admin.query("""
            UPDATE event_orgs SET last_seq = $2::bigint,
                last_hash = (SELECT hash FROM events WHERE org_id = $1::uuid AND org_seq = $2::bigint)
            WHERE org_id = $1::uuid
            """, [.text(org.uuidString), .int(orgSeq)])
        try admin.execute("RESET session_replication_role")
    }
}

extension AuditFixture {
    /// A `checkpoint` over a pool of the application role, signing with `ChainHeads.signer`.
    func checkpoint(interval: Double = 60, clock: TestClock = TestClock()) -> Checkpoint {
        Checkpoint(pool: Pool(configuration: PostgresConfiguration(url: database.appURL, poolSize: 2)),
                   signer: ChainHeads.signer, interval: interval, clock: clock.function)
    }
}
