import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Finds or creates the buyer for `POST /s2s/v1/users` in a project of an organization (`BuyerCreation.decide`).
///
/// A new buyer is one `BuyerCreated` (e-mail sealed for the guid, plus its lookup hash). Concurrent requests with one
/// externalId: the losers' appends fail on `buyers_org_id_external_id_key`, `EventLog.transact` runs them again and
/// they find the winner.
public struct CreateBuyer: Sendable {
    private let context: IdentityContext

    public init(_ context: IdentityContext) { self.context = context }

    /// The guid for `externalId` and/or `email` in `org`; a new buyer's home project is `project`.
    public func run(
        org: OrgID, project: ProjectID, externalId: ExternalID?, email: EmailAddress?, metadata: EventMetadata
    ) throws -> BuyerGuid {
        let emailHash = email.map(context.emailHash)
        return try context.log.transact(in: .org(org.uuid), maxAttempts: 5) { transaction in
            let connection = transaction.connection
            var state = BuyerCreation.State(byExternalId: nil, verifiedByEmail: nil)
            if let externalId {
                state.byExternalId = try guid(connection.query(
                    "SELECT guid::text AS guid FROM buyers WHERE org_id = $1::uuid AND external_id = $2",
                    [.text(org.description), .text(externalId.text)]).rows.first)
            } else if let emailHash {
                state.verifiedByEmail = try guid(connection.query("""
                    SELECT guid::text AS guid FROM buyer_emails
                    WHERE org_id = $1::uuid AND email_hash = $2 AND verified
                    ORDER BY created_at, guid LIMIT 1
                    """, [.text(org.description), .text(emailHash)]).rows.first)
            }
            let command = BuyerCreation.Command(externalId: externalId, email: email,
                                                newGuid: BuyerGuid(randomBytes: SecureRandom.bytes(16)))
            switch BuyerCreation.decide(state, command) {
            case .failure(let refusal):
                throw refusal
            case .success(.existing(let guid)):
                return guid
            case .success(.create(let guid)):
                let sealed = try email.map { try context.seal($0.text, field: .email, org: org, guid: guid,
                                                              on: connection) }
                try transaction.append(
                    org: org.uuid, stream: BuyerStreams.buyer(guid), expectedVersion: .noStream,
                    events: [try NewEvent(BuyerCreated(guid: guid, projectId: project, externalId: externalId,
                                                       email: sealed, emailHash: sealed == nil ? nil : emailHash))],
                    metadata: metadata)
                return guid
            }
        }
    }

    private func guid(_ row: Row?) throws -> BuyerGuid? {
        guard let row, case .success(let guid) = BuyerGuid.parse(try row.string("guid")) else { return nil }
        return guid
    }
}
