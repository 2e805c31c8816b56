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

    /// The stored form of a key: SHA-256 of its text, lowercase hex.
    static func hash(_ key: ProxyKey) -> String { Hex.encode(SHA256.hash(Array(key.text.utf8))) }
}
