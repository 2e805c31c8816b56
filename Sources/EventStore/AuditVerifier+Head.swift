import Foundation
import Postgres

extension AuditVerifier {
    /// What checking the stored history against a signed head found.
    public enum HeadCheck: Sendable, Equatable {
        /// The signature verifies and the event at the head's `org_seq` has its hash and `recorded_at`.
        case matches
        /// The head is another org's.
        case anotherOrg
        /// No key of the list has the head's `key_id`.
        case unknownKey
        /// The head's key is listed but the signature is not its signature of the head.
        case badSignature
        /// The history ends at `lastSeq`, before the head's `org_seq`: its tail was cut off.
        case historyEndsBefore(lastSeq: Int)
        /// The history goes on past the head's `org_seq`, but that event is missing (a deleted row).
        case eventMissing
        /// The event at the head's `org_seq` has another hash (or `recorded_at`): the history was rewritten.
        case differs(storedHash: [UInt8], storedRecordedAt: String)
    }

    /// Checks `head` — a copy kept outside the database — against `org`'s stored history: the signature with `keys`,
    /// then that the history reaches the head's `org_seq` with the same hash. Reads in one REPEATABLE READ, READ
    /// ONLY transaction as the owner (`connection` must not be inside a transaction). The chain itself is
    /// `verify(org:on:)`'s to check.
    public static func check(_ head: ChainHead, org: UUID, keys: [AuditKey], on connection: Connection) throws
        -> HeadCheck
    {
        guard head.orgId == org else { return .anotherOrg }
        switch AuditKey.verify(head, keys: keys) {
        case .unknownKey: return .unknownKey
        case .badSignature: return .badSignature
        case .valid: break
        }
        try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do {
            let stored = try EventReader.readHistory(org: org, fromSeq: head.orgSeq, limit: 1, on: connection).first
            let lastSeq = try connection.query(
                "SELECT coalesce(max(org_seq), 0)::bigint AS last FROM events WHERE org_id = $1::uuid",
                [.text(org.lowercasedText)]).rows[0].int("last")
            try connection.execute("COMMIT")
            guard let stored else { return .historyEndsBefore(lastSeq: lastSeq) }
            guard stored.orgSeq == head.orgSeq else { return .eventMissing }
            guard stored.hash == head.hash, stored.recordedAt == head.recordedAt else {
                return .differs(storedHash: stored.hash, storedRecordedAt: stored.recordedAt)
            }
            return .matches
        } catch {
            if !connection.isBroken { try? connection.execute("ROLLBACK") }
            throw error
        }
    }
}
