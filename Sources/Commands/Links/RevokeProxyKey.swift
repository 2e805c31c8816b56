import Domain
import EventStore
import Foundation
import Postgres

/// Revokes one of an organization's proxy keys (`DELETE /s2s/v1/proxy-keys/{proxyKeyId}`): `ProxyKeyRevoked`, once. A
/// key of another organization is the same 404 as an unknown one; revoking a revoked key records nothing again.
public struct RevokeProxyKey: Sendable {
    private let log: EventLog

    init(log: EventLog) { self.log = log }

    /// Revokes key `id` of `org`; answers the key as the list shows it (its `revokedAt` set).
    public func run(org: OrgID, id: ProxyKeyID, metadata: EventMetadata) throws -> ProxyKeyLookup.Key {
        try log.transact(in: .org(org.uuid)) { transaction in
            let connection = transaction.connection
            guard let row = try connection.query("""
                SELECT revoked_at IS NULL AS live FROM proxy_keys
                WHERE proxy_key_id = $1::uuid AND org_id = $2::uuid FOR UPDATE
                """, [.text(id.description), .text(org.description)]).rows.first
            else { throw Refusal.notFound("the organization has no proxy key with this id", field: "proxyKeyId") }
            if try row.string("live") == "t" {
                try transaction.append(
                    org: org.uuid, stream: LinkStreams.proxyKey(id), expectedVersion: .any,
                    events: [try NewEvent(ProxyKeyRevoked(proxyKeyId: id))], metadata: metadata)
            }
            guard let key = try ProxyKeyLookup.keys(org: org, id: id, on: connection).first else {
                throw InconsistentState("a revoked proxy key does not read back")
            }
            return key
        }
    }
}
