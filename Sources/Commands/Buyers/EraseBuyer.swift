import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Erases buyers' personal data on request (issue 16 §5, docs/personal-data.md "Erasure"): by guid
/// (`POST /s2s/v1/users/{guid}/erasure`) or by address (`POST /s2s/v1/erasures`), and `handoff admin buyer erase`.
///
/// One transaction per request: the command appends `BuyerErased` (and, by address, `EmailErased`); the
/// `ErasureProjection` of `BuyerErased` and the command's call of `email_erase` run the owner's audited functions,
/// which destroy the data keys and delete the lookup rows in that same transaction. Repeats answer the first
/// erasure and record nothing; two concurrent requests for one buyer append at the same stream version, so the loser
/// runs again and finds the winner's erasure.
public struct EraseBuyer: Sendable {
    /// One erased buyer and the erasure that erased it (the first one, on a repeat).
    public struct Erased: Sendable, Equatable {
        public var erasureId: UUID
        public var guid: BuyerGuid
    }

    /// An erasure by address: its id and the buyers it erased (none when no buyer of the org holds the address,
    /// e.g. on a repeat, since the first erasure deleted every lookup row of the address).
    public struct ErasedAddress: Sendable, Equatable {
        public var erasureId: UUID
        public var guids: [BuyerGuid]
    }

    private let context: IdentityContext

    public init(_ context: IdentityContext) { self.context = context }

    /// Erases buyer `guid` of `org`; refuses 404 when the org has no such buyer (a guid of another org included).
    public func run(_ guid: BuyerGuid, org: OrgID, metadata: EventMetadata) throws -> Erased {
        try context.log.transact(in: .org(org.uuid)) { transaction in
            let stored = try read(guid, org: org, on: transaction.connection)
            switch BuyerErasure.decide(stored, newErasureId: SecureRandom.uuid()) {
            case .failure(let refusal):
                throw refusal
            case .success(.alreadyErased(let erasureId)):
                return Erased(erasureId: erasureId, guid: guid)
            case .success(.erase(let erasureId)):
                try append(BuyerErased(erasureId: erasureId, guid: guid), org: org, metadata: metadata,
                           transaction: transaction)
                return Erased(erasureId: erasureId, guid: guid)
            }
        }
    }

    /// Erases every buyer of `org` holding `email` (verified or not) and the address's recovery data. Always
    /// records an `EmailErased`, so every erasure by address has an id in the log, also when nothing was left.
    public func run(email: EmailAddress, org: OrgID, metadata: EventMetadata) throws -> ErasedAddress {
        let emailHash = context.emailHash(email)
        return try context.log.transact(in: .org(org.uuid)) { transaction in
            let connection = transaction.connection
            var holders: [(guid: BuyerGuid, stored: BuyerErasure.Stored)] = []
            for row in try connection.query("""
                SELECT DISTINCT guid FROM buyer_emails WHERE org_id = $1::uuid AND email_hash = $2
                """, [.text(org.description), .text(emailHash)]).rows {
                guard let guid = BuyerGuid(stored: try row.string("guid")) else {
                    throw InconsistentState("a stored buyer does not read back")
                }
                holders.append((guid, try read(guid, org: org, on: connection) ?? .init(erasedBy: nil)))
            }
            let guids = BuyerErasure.toErase(holders)
            let erasureId = SecureRandom.uuid()
            try transaction.append(org: org.uuid, stream: ErasureStreams.erasure(erasureId),
                                   expectedVersion: .noStream,
                                   events: [try NewEvent(EmailErased(erasureId: erasureId, guids: guids))],
                                   metadata: metadata)
            for guid in guids {
                try append(BuyerErased(erasureId: erasureId, guid: guid), org: org, metadata: metadata,
                           transaction: transaction)
            }
            try connection.query("SELECT email_erase($1::uuid, $2, $3::uuid)",
                                 [.text(org.description), .text(emailHash),
                                  .text(erasureId.lowercasedText)])
            return ErasedAddress(erasureId: erasureId, guids: guids)
        }
    }

    /// The buyer as erasure reads it; nil when `org` has no buyer `guid` (row-level security hides other orgs').
    private func read(_ guid: BuyerGuid, org: OrgID, on connection: Connection) throws -> BuyerErasure.Stored? {
        guard try !connection.query("SELECT 1 FROM buyers WHERE org_id = $1::uuid AND guid = $2",
                                    [.text(org.description), .text(guid.description)]).rows.isEmpty
        else { return nil }
        let erased = try connection.query("""
            SELECT data->>'erasureId' AS erasure_id FROM events
            WHERE org_id = $1::uuid AND stream_id = $2 AND event_type = $3
            ORDER BY stream_version LIMIT 1
            """, [.text(org.description), .text(BuyerStreams.buyer(guid)), .text(BuyerErased.eventType)]).rows.first
        guard let erased else { return BuyerErasure.Stored(erasedBy: nil) }
        guard let id = UUID(canonicalText: try erased.string("erasure_id")) else {
            throw InconsistentState("a recorded erasure has no id")
        }
        return BuyerErasure.Stored(erasedBy: id)
    }

    /// Appends `event` to the buyer's stream at the version just read, so a concurrent erasure of the same buyer
    /// fails here and runs again.
    private func append(_ event: BuyerErased, org: OrgID, metadata: EventMetadata,
                        transaction: EventTransaction) throws {
        let stream = "buyer-" + event.guid
        let version = try transaction.streamVersion(org: org.uuid, stream: stream)
        try transaction.append(org: org.uuid, stream: stream,
                               expectedVersion: version == 0 ? .noStream : .exactly(version),
                               events: [try NewEvent(event)], metadata: metadata)
    }
}
