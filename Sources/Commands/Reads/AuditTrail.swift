import Domain
import EventStore
import Foundation
import Postgres

/// The signed chain heads and audit public keys as the API shows them (`GET /s2s/v1/audit/heads`, `…/keys`).
public struct AuditTrail: Sendable {
    /// The most heads one page shows.
    public static let maxLimit = 1000
    private let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// `{"heads":[…],"nextAfter":N}`: up to `limit` of `org`'s signed heads with `org_seq` > `after`, in order, each
    /// as its signed document; `nextAfter` is the last `org_seq` shown (`after` when none). Only `org`'s heads:
    /// the read is scoped to it (row-level security).
    public func heads(org: OrgID, after: Int, limit: Int) throws -> EventJSON {
        let heads = try log.read(in: .org(org.uuid)) { connection in
            try ChainHeadStore.page(org: org.uuid, after: after, limit: min(max(1, limit), Self.maxLimit),
                                    on: connection)
        }
        return .object(["heads": .array(heads.map(\.json)),
                        "nextAfter": .integer(Int64(heads.last?.orgSeq ?? after))])
    }

    /// `{"keys":[…]}`: every public key that ever signed a head, the first used first.
    public func keys() throws -> EventJSON {
        let keys = try log.pool.withConnection { try ChainHeadStore.keys(on: $0) }
        return AuditKey.document(keys)
    }
}
