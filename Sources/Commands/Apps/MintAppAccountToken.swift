import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// A buyer's App Store `appAccountToken` (`POST /public/app-account-token`): the one minted before for the
/// (organization, guid), or a new random one recorded as `AppAccountTokenMinted` (`AppAccountTokenMinting.decide`).
///
/// Two first requests at once: the loser's append fails on the stream's version (or the table's primary key),
/// `EventLog.transact` runs it again and it answers the winner's token.
public struct MintAppAccountToken: Sendable {
    private let log: EventLog

    init(log: EventLog) { self.log = log }

    /// The token of `guid` in the organization of `project`. Refuses 404 for a project that does not exist, 400
    /// `VISITOR_ID_FOREIGN_PROJECT` for a guid of another organization (nothing recorded).
    public func run(project: ProjectID, guid: BuyerGuid, metadata: EventMetadata) throws -> UUID {
        try log.transact(in: .orgOf(.project, .text(project.description))) { transaction in
            guard let org = try ProjectLookup.project(project, org: nil, on: transaction.connection,
                                                      forUpdate: false)?.orgId
            else { throw Refusal.notFound("no project has this projectId", field: "projectId") }
            return try Self.token(of: guid, project: project, org: org, metadata: metadata, in: transaction)
        }
    }

    /// The token of `guid` in `org` (whose project `project` asks), minted in `transaction` when there is none yet;
    /// refuses 400 `VISITOR_ID_FOREIGN_PROJECT` for a guid of another organization. Bind (`BindReferral`) mints in
    /// its own transaction through this, so the token and the referral are recorded together.
    static func token(of guid: BuyerGuid, project: ProjectID, org: OrgID, metadata: EventMetadata,
                      in transaction: EventTransaction) throws -> UUID {
        let row = try transaction.connection.queryPrepared("""
            SELECT buyer_org($1)::text AS home_org,
                (SELECT app_account_token::text FROM app_account_tokens WHERE org_id = $2::uuid AND guid = $1)
                    AS token
            """, [.text(guid.description), .text(org.description)]).rows.first
        let home = try row?["home_org"].map { text in
            guard case .success(let home) = OrgID.parse(text) else {
                throw InconsistentState("a buyer's org does not read back")
            }
            return home
        }
        let existing = try row?["token"].map { text in
            guard let token = UUID(canonicalText: text) else {
                throw InconsistentState("a stored app account token does not read back")
            }
            return token
        }
        let decision = try AppAccountTokenMinting.decide(
            org: org, homeOrg: home, existing: existing,
            newToken: AppAccountTokenMinting.newToken(randomBytes: SecureRandom.bytes(16))).get()
        switch decision {
        case .existing(let token):
            return token
        case .mint(let token):
            try transaction.append(
                org: org.uuid, stream: AppStreams.accountToken(guid), expectedVersion: .noStream,
                events: [try NewEvent(AppAccountTokenMinted(guid: guid, projectId: project, appAccountToken: token))],
                metadata: metadata)
            return token
        }
    }
}
