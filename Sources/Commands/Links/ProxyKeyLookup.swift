import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// The organization a proxy key speaks for (`proxy_key_org`, migration 0032: one exact key hash in, the org out).
public struct ProxyKeyLookup: Sendable {
    let pool: Pool

    init(pool: Pool) { self.pool = pool }

    /// The org of the key spelled by `text`; nil for a malformed or unknown key (the same nil for each).
    public func org(of text: String) throws -> OrgID? {
        guard let key = ProxyKey.parse(text) else { return nil }
        let rows = try pool.withConnection {
            try $0.queryPrepared("SELECT proxy_key_org($1)::text AS org", [.text(Self.hash(key))]).rows
        }
        guard let org = rows.first?["org"], case .success(let id) = OrgID.parse(org) else { return nil }
        return id
    }

    /// A proxy key as its organization's list shows it: never the key itself.
    public struct Key: Sendable, Equatable, Encodable {
        public var proxyKeyId: String
        /// The key's first 11 characters (`px_` and 8 more), to tell keys apart.
        public var visiblePrefix: String
        public var domains: [String]
        public var createdAt: String
        /// When it was revoked; nil (written `null`) while it works.
        public var revokedAt: String?

        private enum CodingKeys: String, CodingKey { case proxyKeyId, visiblePrefix, domains, createdAt, revokedAt }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(proxyKeyId, forKey: .proxyKeyId)
            try container.encode(visiblePrefix, forKey: .visiblePrefix)
            try container.encode(domains, forKey: .domains)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(revokedAt, forKey: .revokedAt)
        }
    }

    /// The proxy keys of `org`, revoked ones included, oldest first.
    public func keys(org: OrgID) throws -> [Key] {
        try pool.transaction(opening: OrgScope.org(org.uuid).statement) { try Self.keys(org: org, id: nil, on: $0) }
    }

    /// The keys of `org` (only key `id` when given), oldest first, read on `connection` in the org's scope.
    static func keys(org: OrgID, id: ProxyKeyID?, on connection: Connection) throws -> [Key] {
        try connection.query("""
            SELECT proxy_key_id::text AS id, visible_prefix, array_to_json(domains)::text AS domains,
                to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
                to_char(revoked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS revoked_at
            FROM proxy_keys WHERE org_id = $1::uuid AND ($2::uuid IS NULL OR proxy_key_id = $2::uuid)
            ORDER BY created_at, proxy_key_id
            """, [.text(org.description), .optional(id?.description)]).rows.map { row in
            Key(proxyKeyId: try row.string("id"), visiblePrefix: try row.string("visible_prefix"),
                domains: try JSONDecoder().decode([String].self, from: Data(try row.string("domains").utf8)),
                createdAt: try row.string("created_at"),
                revokedAt: row.isNull("revoked_at") ? nil : try row.string("revoked_at"))
        }
    }

    /// The stored form of a key: SHA-256 of its text, lowercase hex.
    static func hash(_ key: ProxyKey) -> String { Hex.encode(SHA256.hash(Array(key.text.utf8))) }
}
