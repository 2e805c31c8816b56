import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Buyers as commands on the event store and reads of their projections (`buyers`, `buyer_emails`).
///
/// Every read takes the org id, except `homeOrganization(of:)`, which exists to tell a foreign guid apart.
public struct BuyerDirectory: Sendable {
    public let store: EventStore
    private let subjectKeys: SubjectKeys
    private let lookupPepper: [UInt8]

    public init(store: EventStore, secrets: IdentitySecrets) {
        self.store = store
        self.subjectKeys = SubjectKeys(masterKey: secrets.masterKey)
        self.lookupPepper = secrets.lookupPepper
    }

    /// Finds or creates the buyer for `POST /s2s/v1/users` in `project` of `org`.
    ///
    /// - An `externalId` known in the org → that buyer (the e-mail is not looked at); else a new buyer with it.
    /// - Only an e-mail: a buyer of the org with that e-mail *verified* → that buyer; else a new buyer, even when
    ///   unverified buyers have that e-mail.
    /// A new buyer is one `BuyerCreated` (e-mail sealed for the guid, plus its lookup hash). Concurrent requests with
    /// one externalId: the losers' appends fail on `buyers_org_id_external_id_key` and retry, finding the winner.
    public func findOrCreate(
        org: OrgID, project: ProjectID, externalId: ExternalID?, email: EmailAddress?, metadata: EventMetadata
    ) throws -> BuyerGuid {
        precondition(externalId != nil || email != nil, "findOrCreate needs an externalId or an e-mail")
        let emailHash = email.map { LookupHash.email($0.text, pepper: lookupPepper) }
        var attempt = 1
        while true {
            do {
                return try store.transact { transaction in
                    let connection = transaction.connection
                    if let externalId {
                        if let found = try buyer(org: org, externalId: externalId, on: connection) { return found }
                    } else if let emailHash,
                              let found = try verifiedBuyer(org: org, emailHash: emailHash, on: connection) {
                        return found
                    }
                    let guid = BuyerGuid(randomBytes: SecureRandom.bytes(16))
                    let sealed = try email.flatMap {
                        try subjectKeys.seal($0.text, field: .email, org: org.uuid, subject: guid.description,
                                             on: connection)
                    }
                    try transaction.append(
                        org: org.uuid, stream: BuyerStreams.buyer(guid), expectedVersion: .noStream,
                        events: [try NewEvent(BuyerCreated(guid: guid, projectId: project, externalId: externalId,
                                                           email: sealed, emailHash: sealed == nil ? nil : emailHash))],
                        metadata: metadata)
                    return guid
                }
            } catch let error as PostgresError where error.kind == .uniqueViolation && attempt < 5 {
                attempt += 1
            }
        }
    }

    /// The organization a guid belongs to (where it first appeared), or nil for a guid never seen.
    public func homeOrganization(of guid: BuyerGuid) throws -> OrgID? {
        let rows = try store.pool.withConnection { connection in
            try connection.queryPrepared("SELECT org_id::text AS org_id FROM buyers WHERE guid = $1::uuid",
                                         [.text(guid.description)]).rows
        }
        guard let row = rows.first, case .success(let org) = OrgID.parse(try row.string("org_id")) else { return nil }
        return org
    }

    private func buyer(org: OrgID, externalId: ExternalID, on connection: Connection) throws -> BuyerGuid? {
        try guid(connection.query(
            "SELECT guid::text AS guid FROM buyers WHERE org_id = $1::uuid AND external_id = $2",
            [.text(org.description), .text(externalId.text)]).rows.first)
    }

    private func verifiedBuyer(org: OrgID, emailHash: String, on connection: Connection) throws -> BuyerGuid? {
        try guid(connection.query("""
            SELECT guid::text AS guid FROM buyer_emails
            WHERE org_id = $1::uuid AND email_hash = $2 AND verified
            ORDER BY created_at, guid LIMIT 1
            """, [.text(org.description), .text(emailHash)]).rows.first)
    }

    private func guid(_ row: Row?) throws -> BuyerGuid? {
        guard let row, case .success(let guid) = BuyerGuid.parse(try row.string("guid")) else { return nil }
        return guid
    }
}
