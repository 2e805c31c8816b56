import Domain
import EventStore
import Foundation
import Postgres

/// Folds `BuyerErased` (migration `0024_erasure.sql`, docs/personal-data.md "Erasure"): the buyer's lookup rows go.
///
/// Live, it calls the owner's `buyer_erase` in the append's transaction: the application role has no DELETE on
/// these tables and no UPDATE or DELETE on `subject_keys`, and the function erases only a buyer whose `BuyerErased`
/// the transaction holds. In a replay (run by the owner, into fresh tables) it deletes the same rows from the
/// rebuilt tables, so `handoff replay` never brings back an erased buyer's e-mail hashes, fingerprints or codes'
/// sealed copies (data keys and recovery gaps are not projections: replay leaves them as they are).
/// Registered after the projections that fill these tables, so it runs after them for every event.
public struct ErasureProjection: InlineProjection {
    public init() {}

    public var tables: [String] { ["buyer_emails", "handoff_codes", "fingerprints"] }

    public func apply(_ event: RecordedEvent, on connection: Connection, tables: ProjectionTables) throws {
        guard event.eventType == BuyerErased.eventType else { return }
        let erased = try event.decode(BuyerErased.self)
        let org = PostgresValue.text(event.orgId.lowercasedText)
        let guid = PostgresValue.text(erased.guid)
        if tables == .live {
            try connection.query("SELECT buyer_erase($1::uuid, $2)", [org, guid])
            return
        }
        try connection.query("DELETE FROM \(tables["buyer_emails"]) WHERE org_id = $1::uuid AND guid = $2",
                             [org, guid])
        try connection.query("DELETE FROM \(tables["fingerprints"]) WHERE org_id = $1::uuid AND guid = $2",
                             [org, guid])
        try connection.query("""
            UPDATE \(tables["handoff_codes"]) SET sealed_code = NULL, email_hash = NULL
            WHERE org_id = $1::uuid AND guid = $2
            """, [org, guid])
    }
}
