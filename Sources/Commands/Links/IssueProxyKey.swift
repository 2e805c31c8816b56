import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Gives an organization a proxy key for its domains (`handoff admin proxy-key create`): `ProxyKeyIssued`. The key
/// is answered once and kept only as its SHA-256.
public struct IssueProxyKey: Sendable {
    /// A new key, shown once.
    public struct Issued: Sendable, Encodable {
        public var proxyKeyId: String
        public var proxyKey: String
        public var header: String
        public var domains: [String]
    }

    private let log: EventLog

    init(log: EventLog) { self.log = log }

    /// Issues a key for `domains` (already checked) in `org`; refuses 404 for an organization that does not exist.
    public func run(org: OrgID, domains: [String], metadata: EventMetadata) throws -> Issued {
        let id = ProxyKeyID(randomBytes: SecureRandom.bytes(16))
        let key = ProxyKey(randomBytes: SecureRandom.bytes(ProxyKey.randomByteCount))
        return try log.transact(in: .org(org.uuid)) { transaction in
            guard !(try transaction.connection.query("SELECT 1 FROM organizations WHERE org_id = $1::uuid",
                                                     [.text(org.description)]).rows.isEmpty)
            else { throw Refusal.notFound("no organization has this id", field: "--org") }
            try transaction.append(
                org: org.uuid, stream: LinkStreams.proxyKey(id), expectedVersion: .noStream,
                events: [try NewEvent(ProxyKeyIssued(proxyKeyId: id, keyHash: ProxyKeyLookup.hash(key),
                                                     visiblePrefix: key.visiblePrefix, domains: domains))],
                metadata: metadata)
            return Issued(proxyKeyId: id.description, proxyKey: key.text, header: ProxyKey.header, domains: domains)
        }
    }
}
