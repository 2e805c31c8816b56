import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// The lookup references of events of schema version 2 (`LookupRefVersion`, migration `0039_lookup_refs.sql`,
/// docs/personal-data.md "Lookup references"): a random reference per (org, e-mail address) or (org, buyer, IP
/// address), stored in `lookup_refs` with the keyed hash it stands for, so that the log never holds the hash and an
/// erasure (which deletes the rows) leaves references that lead nowhere.
///
/// Every call runs on the caller's connection, inside its transaction and org scope. `lookup_refs` is not a
/// projection: `handoff replay` keeps it, and the projections resolve references through it.
public enum LookupRefs {
    /// What a reference stands for.
    public enum Kind: String, Sendable {
        /// An e-mail address's `LookupHash.email`; one reference per (org, address).
        case email
        /// An IP address's `LookupHash.ipAddress`; one reference per (org, buyer, address).
        case ip
    }

    /// The reference of `hash` in `org` (for an IP, of buyer `guid`), made on first use. Concurrent first callers all
    /// get the one that was stored.
    public static func ref(_ kind: Kind, hash: String, org: UUID, guid: String? = nil,
                           on connection: Connection) throws -> String {
        let parameters: [PostgresValue] = [.text(org.lowercasedText), .text(kind.rawValue), .text(hash),
                                           .text(guid ?? "")]
        let select = """
            SELECT ref FROM lookup_refs
            WHERE org_id = $1::uuid AND kind = $2 AND hash = $3 AND coalesce(guid, '') = $4
            """
        // One round trip for a new reference and for a known one: the insert answers the new row, the select beside
        // it the stored one (both under the statement's snapshot).
        if let row = try connection.queryPrepared("""
            WITH made AS (
                INSERT INTO lookup_refs (org_id, ref, kind, hash, guid) VALUES ($1::uuid, $5, $2, $3, nullif($4, ''))
                ON CONFLICT DO NOTHING RETURNING ref
            )
            SELECT ref FROM made UNION ALL (\(select))
            """, parameters + [.text(Hex.encode(SecureRandom.bytes(32)))]).rows.first {
            return try row.string("ref")
        }
        // A concurrent first caller stored it after this statement's snapshot was taken: it is visible now.
        guard let row = try connection.queryPrepared(select, parameters).rows.first else {
            throw InconsistentState("a lookup reference was neither stored nor found")
        }
        return try row.string("ref")
    }

    /// The keyed hash `ref` stands for in `org`; nil once an erasure deleted it.
    public static func hash(of ref: String, org: UUID, on connection: Connection) throws -> String? {
        try connection.queryPrepared("SELECT hash FROM lookup_refs WHERE org_id = $1::uuid AND ref = $2",
                                     [.text(org.lowercasedText), .text(ref)]).rows.first?.string("hash")
    }

    /// The keyed hash an event names: its version 1 `hash` member as is, else what its version 2 `ref` stands for;
    /// nil when it names none or the reference was erased.
    public static func resolve(hash: String?, ref: String?, org: UUID, on connection: Connection) throws -> String? {
        if let hash { return hash }
        guard let ref else { return nil }
        return try Self.hash(of: ref, org: org, on: connection)
    }
}
