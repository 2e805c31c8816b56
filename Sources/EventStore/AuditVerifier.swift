import Foundation
import Postgres

/// Recomputes orgs' hash chains and `org_seq` continuity from the stored rows (the library behind
/// `handoff audit verify`).
public enum AuditVerifier {
    /// Verifies `org` (or every org that has events or a counter row, when nil); returns one `ChainBreak` per broken
    /// org — its first bad `org_seq` — and an empty array when everything verifies.
    ///
    /// Reads in pages of `pageSize` inside one REPEATABLE READ, READ ONLY transaction, so the counter rows and the
    /// events come from one snapshot: `connection` must not be inside a transaction. Works with SELECT privilege
    /// only, as a role that row-level security does not limit (the owner: to the application role every org's log
    /// looks empty).
    public static func verify(
        org: UUID? = nil, on connection: Connection, pageSize: Int = 1000
    ) throws -> [ChainBreak] {
        try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do {
            let orgs = try org.map { [$0] } ?? allOrgs(on: connection)
            var breaks: [ChainBreak] = []
            for org in orgs {
                if let broken = try verifyOne(org: org, on: connection, pageSize: max(1, pageSize)) {
                    breaks.append(broken)
                }
            }
            try connection.execute("COMMIT")
            return breaks
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Every org id in `events` (a loose index scan over the primary key) or in `event_orgs`.
    private static func allOrgs(on connection: Connection) throws -> [UUID] {
        try connection.query("""
            WITH RECURSIVE orgs(org_id) AS (
                (SELECT org_id FROM events ORDER BY org_id LIMIT 1)
                UNION ALL
                SELECT (SELECT e.org_id FROM events e WHERE e.org_id > orgs.org_id ORDER BY e.org_id LIMIT 1)
                FROM orgs WHERE orgs.org_id IS NOT NULL
            )
            SELECT org_id FROM orgs WHERE org_id IS NOT NULL
            UNION SELECT org_id FROM event_orgs
            ORDER BY 1
            """).rows.compactMap { $0["org_id"].flatMap(UUID.init(canonicalText:)) }
    }

    /// The first column holding a value `event_append` refuses or never writes (what the CHECK constraints of 0003
    /// said, before 0012 moved them into `event_append`), or nil.
    static func invalidField(of event: RecordedEvent) -> String? {
        if event.streamId.isEmpty { return "stream_id" }
        if event.eventType.isEmpty { return "event_type" }
        if event.schemaVersion < 1 { return "schema_version" }
        if event.streamVersion < 1 { return "stream_version" }
        return nil
    }

    private static func verifyOne(org: UUID, on connection: Connection, pageSize: Int) throws -> ChainBreak? {
        let orgText = org.lowercasedText
        var expectedSeq = 1
        var previousHash = EventChain.genesisHash
        while true {
            let rows = try connection.queryPrepared("""
                SELECT \(RecordedEvent.columns) FROM events
                WHERE org_id = $1::uuid AND org_seq >= $2::bigint ORDER BY org_seq LIMIT $3
                """, [.text(orgText), .int(expectedSeq), .int(pageSize)]).rows
            for row in rows {
                let seq = (try? row.int("org_seq")) ?? -1
                guard seq == expectedSeq else {
                    return ChainBreak(org: org, orgSeq: expectedSeq, reason: .gap(found: seq))
                }
                let event: RecordedEvent
                do {
                    event = try RecordedEvent(row: row)
                } catch {
                    return ChainBreak(org: org, orgSeq: seq, reason: .unreadable(String(describing: error)))
                }
                if let field = Self.invalidField(of: event) {
                    return ChainBreak(org: org, orgSeq: seq, reason: .invalidValue(field: field))
                }
                guard event.previousHash == previousHash else {
                    return ChainBreak(org: org, orgSeq: seq, reason: .previousHashMismatch)
                }
                guard EventChain.hash(previous: previousHash, canonical: event.canonicalBytes) == event.hash else {
                    return ChainBreak(org: org, orgSeq: seq, reason: .hashMismatch)
                }
                previousHash = event.hash
                expectedSeq += 1
            }
            if rows.count < pageSize { break }
        }
        let lastSeq = expectedSeq - 1
        let counter = try connection.queryPrepared(
            "SELECT last_seq, last_hash FROM event_orgs WHERE org_id = $1::uuid", [.text(orgText)]).first
        guard let counter, let counterSeq = try? counter.int("last_seq") else {
            return lastSeq == 0 ? nil
                : ChainBreak(org: org, orgSeq: lastSeq, reason: .counterSequenceMismatch(counterSeq: nil))
        }
        guard counterSeq == lastSeq else {
            return ChainBreak(org: org, orgSeq: lastSeq + 1 <= counterSeq ? lastSeq + 1 : lastSeq,
                              reason: .counterSequenceMismatch(counterSeq: counterSeq))
        }
        guard counter.bytes("last_hash") == previousHash else {
            return ChainBreak(org: org, orgSeq: lastSeq, reason: .counterHashMismatch)
        }
        return nil
    }
}
