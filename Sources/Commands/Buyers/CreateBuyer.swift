import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Finds or creates the buyer for `POST /s2s/v1/users` in a project of an organization (`BuyerCreation.decide`).
///
/// A new buyer is one `BuyerCreated` (e-mail sealed for the guid, plus its lookup reference, `LookupRefs`).
/// Concurrent requests with one externalId: the losers' appends fail on `buyers_org_id_external_id_key`,
/// `EventLog.transact` runs them again and they find the winner.
public struct CreateBuyer: Sendable {
    private let context: IdentityContext

    public init(_ context: IdentityContext) { self.context = context }

    /// The guid for `externalId` and/or `email` in `org`; a new buyer's home project is `project`.
    public func run(
        org: OrgID, project: ProjectID, externalId: ExternalID?, email: EmailAddress?, metadata: EventMetadata
    ) throws -> BuyerGuid {
        let emailHash = email.map(context.emailHash)

        /// Appends the new buyer's `BuyerCreated` (and `EmailAmbiguous` when other buyers verified its address).
        func create(_ guid: BuyerGuid, ambiguity: [BuyerGuid], transaction: EventTransaction) throws {
            let sealed = try email.map { try context.seal($0.text, field: .email, org: org, guid: guid,
                                                          on: transaction.connection) }
            let emailRef = try emailHash.map {
                try LookupRefs.ref(.email, hash: $0, org: org.uuid, on: transaction.connection)
            }
            var events = [try NewEvent(BuyerCreated(guid: guid, projectId: project, externalId: externalId,
                                                    email: sealed, emailRef: sealed == nil ? nil : emailRef))]
            if let emailRef, !ambiguity.isEmpty {
                events.append(try NewEvent(EmailAmbiguous(emailRef: emailRef, verifiedGuids: ambiguity,
                                                          guid: guid)))
            }
            try transaction.append(org: org.uuid, stream: BuyerStreams.buyer(guid), expectedVersion: .noStream,
                                   events: events, metadata: metadata)
        }

        return try context.log.transact(in: .org(org.uuid), maxAttempts: 5) { transaction in
            let connection = transaction.connection
            var state = BuyerCreation.State(byExternalId: nil, verifiedByEmail: [])
            if let externalId {
                state.byExternalId = try guid(connection.query(
                    "SELECT guid FROM buyers WHERE org_id = $1::uuid AND external_id = $2",
                    [.text(org.description), .text(externalId.text)]).rows.first)
            } else if let emailHash {
                state.verifiedByEmail = try connection.query("""
                    SELECT guid FROM buyer_emails
                    WHERE org_id = $1::uuid AND email_hash = $2 AND verified
                    ORDER BY created_at, guid LIMIT $3
                    """, [.text(org.description), .text(emailHash), .int(BuyerCreation.ambiguityListLimit)])
                    .rows.compactMap(guid)
            }
            let command = BuyerCreation.Command(externalId: externalId, email: email,
                                                newGuid: BuyerGuid(randomBytes: SecureRandom.bytes(16)))
            switch BuyerCreation.decide(state, command) {
            case .failure(let refusal):
                throw refusal
            case .success(.existing(let guid)):
                return guid
            case .success(.create(let guid)):
                try create(guid, ambiguity: [], transaction: transaction)
                return guid
            case .success(.createBesideAmbiguousEmail(let guid, let verified)):
                try create(guid, ambiguity: verified, transaction: transaction)
                return guid
            }
        }
    }

    private func guid(_ row: Row?) throws -> BuyerGuid? {
        guard let row else { return nil }
        guard let guid = BuyerGuid(stored: try row.string("guid")) else {
            throw InconsistentState("a stored buyer does not read back")
        }
        return guid
    }
}
