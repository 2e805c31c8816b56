import Crypto
import Foundation
import Postgres

/// The SQL of `chain_heads` and `audit_keys` (migration 0023); every function runs on the caller's connection and
/// transaction. Under the application role, reads and writes of `chain_heads` see only the orgs the transaction is
/// scoped to (row-level security); the owner (`handoff audit`) sees every org.
public enum ChainHeadStore {
    /// The select list of a head; `head(_:)` decodes it.
    static let columns = """
        org_id, org_seq, hash, \
        to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS recorded_at, \
        to_char(signed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS signed_at, key_id, signature
        """

    /// Registers `key` (first used `now`) unless it is listed already.
    public static func registerKey(_ key: Ed25519PublicKey, now: Date, on connection: Connection) throws {
        try connection.queryPrepared("""
            INSERT INTO audit_keys (key_id, algorithm, public_key, first_used_at)
            VALUES ($1, 'ed25519', $2, $3::timestamptz) ON CONFLICT DO NOTHING
            """, [.text(AuditKey.id(of: key)), .bytea(key.raw), .text(ChainHead.canonicalTime(now))])
    }

    /// Every listed key, the first used first.
    public static func keys(on connection: Connection) throws -> [AuditKey] {
        try connection.query("""
            SELECT public_key,
                   to_char(first_used_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS first_used_at
            FROM audit_keys ORDER BY first_used_at, key_id
            """).rows.map { row in
            guard let raw = row.bytes("public_key"), let key = Ed25519PublicKey(raw: raw) else {
                throw EventStoreError.malformedRow("audit_keys.public_key is not an Ed25519 key")
            }
            return AuditKey(publicKey: key, firstUsedAt: try row.string("first_used_at"))
        }
    }

    /// Inserts `head`; false when the org already has a head at that `org_seq`.
    @discardableResult
    public static func insert(_ head: ChainHead, on connection: Connection) throws -> Bool {
        try connection.queryPrepared("""
            INSERT INTO chain_heads (org_id, org_seq, hash, recorded_at, signed_at, key_id, signature)
            VALUES ($1::uuid, $2::bigint, $3, $4::timestamptz, $5::timestamptz, $6, $7) ON CONFLICT DO NOTHING
            """, [.text(head.orgId.lowercasedText), .int(head.orgSeq), .bytea(head.hash),
                  .text(head.recordedAt), .text(head.signedAt), .text(head.keyId), .bytea(head.signature)])
            .affectedRows == 1
    }

    /// `org`'s latest head, or its latest at or before `atOrBefore`; nil when none.
    public static func latest(org: UUID, atOrBefore: Int? = nil, on connection: Connection) throws -> ChainHead? {
        try connection.queryPrepared("""
            SELECT \(columns) FROM chain_heads
            WHERE org_id = $1::uuid AND ($2::bigint IS NULL OR org_seq <= $2::bigint)
            ORDER BY org_seq DESC LIMIT 1
            """, [.text(org.lowercasedText), .optional(atOrBefore)]).first.map(head)
    }

    /// Up to `limit` of `org`'s heads with `org_seq` > `after`, in `org_seq` order.
    public static func page(org: UUID, after: Int, limit: Int, on connection: Connection) throws -> [ChainHead] {
        try connection.queryPrepared("""
            SELECT \(columns) FROM chain_heads WHERE org_id = $1::uuid AND org_seq > $2::bigint
            ORDER BY org_seq LIMIT $3::bigint
            """, [.text(org.lowercasedText), .int(after), .int(limit)]).rows.map(head)
    }

    /// Up to `limit` orgs whose history moved past their latest head and whose latest head was signed at or before
    /// `before` (or that have none): the SECURITY DEFINER `chain_heads_due`, the one read across orgs.
    public static func due(before: Date, limit: Int, on connection: Connection) throws -> [UUID] {
        try connection.queryPrepared("SELECT chain_heads_due($1::timestamptz, $2::integer) AS org_id",
                                     [.text(ChainHead.canonicalTime(before)), .int(limit)])
            .rows.compactMap { $0["org_id"].flatMap(UUID.init(canonicalText:)) }
    }

    /// Takes the transaction-level advisory lock of `org`'s checkpoint; false when another transaction holds it.
    public static func tryLock(org: UUID, on connection: Connection) throws -> Bool {
        try connection.queryPrepared(
            "SELECT pg_try_advisory_xact_lock(hashtextextended('handoff-checkpoint:' || $1, 0)) AS locked",
            [.text(org.lowercasedText)]).rows[0].bool("locked")
    }

    /// Where `org`'s history ends: the last `org_seq` (from the counter row), its hash and `recorded_at`; nil when
    /// the org has no event.
    public static func end(org: UUID, on connection: Connection) throws
        -> (orgSeq: Int, hash: [UInt8], recordedAt: String)?
    {
        guard let row = try connection.queryPrepared("""
            SELECT e.org_seq, e.hash,
                   to_char(e.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS recorded_at
            FROM event_orgs o JOIN events e ON e.org_id = o.org_id AND e.org_seq = o.last_seq
            WHERE o.org_id = $1::uuid
            """, [.text(org.lowercasedText)]).first else { return nil }
        guard let hash = row.bytes("hash") else { throw EventStoreError.malformedRow("events.hash") }
        return (try row.int("org_seq"), hash, try row.string("recorded_at"))
    }

    private static func head(_ row: Row) throws -> ChainHead {
        guard let org = UUID(canonicalText: try row.string("org_id")), let hash = row.bytes("hash"),
              let signature = row.bytes("signature") else {
            throw EventStoreError.malformedRow("chain_heads: org_id, hash or signature does not decode")
        }
        return ChainHead(orgId: org, orgSeq: try row.int("org_seq"), hash: hash,
                         recordedAt: try row.string("recorded_at"), signedAt: try row.string("signed_at"),
                         keyId: try row.string("key_id"), signature: signature)
    }
}
