import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Binds an App Store `appAccountToken` to an affiliate's referral (`POST /v1/app-store/bind`): `ReferralBound`, with
/// `AffiliateLinkClicked` (source `code`) first when the app gave a referral code, and `AppAccountTokenMinted` first
/// when the guid had no token yet (`ReferralBinding`).
///
/// The token: a guid's own (the one `POST /public/app-account-token` answers, minted here when absent); without a
/// guid, a fresh random token minted once per click and kept on the click, so retrying the same bind answers it
/// again. Binds of one click wait for each other (the click's row is locked); two binds of one token at once: the
/// loser's append fails on the token's referral stream version, `EventLog.transact` runs it again, and first touch
/// holds.
public struct BindReferral: Sendable {
    /// What the app gave to name the referral.
    public enum Source: Sendable {
        /// A `signedClickId` of the right shape (not yet verified).
        case click(SignedClickID.Parsed)
        /// A referral code typed or pasted by the buyer.
        case code(RefCode)
    }

    /// The answer: the token the app passes to StoreKit, and the referral that holds for it.
    public struct Bound: Sendable, Equatable {
        public var appAccountToken: UUID
        /// The offer code of the holding referral's campaign.
        public var offerCode: String?
        /// The holding referral's `windowEndsAt`.
        public var expiresAt: Date
        /// The referral that holds (the one just bound, or an earlier open one).
        public var referral: Referral
    }

    private let log: EventLog

    init(log: EventLog) { self.log = log }

    /// Binds in `project` at `now`; `keys` verify a signed click id. Refuses 404 (`ReferralBinding.notFound`, one
    /// answer for all) for an unknown project, a click id that does not verify or is expired, of another project, or
    /// not recorded, and an unknown code; 400 `VISITOR_ID_FOREIGN_PROJECT` for a guid of another organization.
    /// Nothing is recorded on a refusal.
    public func run(project: ProjectID, source: Source, guid: BuyerGuid?, now: Date, keys: PassKeys,
                    metadata: EventMetadata) throws -> Bound {
        if case .click(let parsed) = source {
            guard case .success(let claims) = SignedClickID.verify(parsed, now: now, keys: keys),
                  claims.project == project else { throw ReferralBinding.notFound }
        }
        let freshToken = AppAccountTokenMinting.newToken(randomBytes: SecureRandom.bytes(16))
        let codeClick = ClickID(randomBytes: SecureRandom.bytes(16))
        return try log.transact(in: .orgOf(.project, .text(project.description))) { transaction in
            let connection = transaction.connection
            guard let org = try ProjectLookup.project(project, org: nil, on: connection, forUpdate: false)?.orgId
            else { throw ReferralBinding.notFound }
            let found: (click: ClickFacts?, terms: CampaignTerms?, token: UUID?)
            switch source {
            case .click(let parsed):
                let row = try AffiliateLookup.click(parsed.claims.click, on: connection, forUpdate: true)
                found = (row?.click, row?.terms, row?.token)
            case .code(let code):
                let target = try AffiliateLookup.target(of: code, project: project, on: connection)?.target
                found = (target.map { ClickFacts.new(codeClick, target: $0, source: .code, now: now) }, target?.terms,
                         nil)
            }
            let (click, terms) = try ReferralBinding.usable(project: project, click: found.click, terms: found.terms,
                                                            now: now).get()
            let token = try guid.map {
                try MintAppAccountToken.token(of: $0, project: project, org: org, metadata: metadata, in: transaction)
            } ?? found.token ?? freshToken
            let stream = AffiliateStreams.referral(token)
            let version = try transaction.streamVersion(org: org.uuid, stream: stream)
            let held = try AffiliateLookup.heldReferral(org: org.uuid, token: token, on: connection)
            switch ReferralBinding.decide(click: click, terms: terms, existing: held?.referral, now: now) {
            case .holds(let referral):
                return Bound(appAccountToken: token, offerCode: held?.offerCode, expiresAt: referral.windowEndsAt,
                             referral: referral)
            case .bind(let referral):
                if click.source == .code {
                    try transaction.append(org: org.uuid, stream: AffiliateStreams.click(click.click),
                                           expectedVersion: .noStream,
                                           events: [try NewEvent(AffiliateLinkClicked(click))], metadata: metadata)
                }
                try transaction.append(
                    org: org.uuid, stream: stream, expectedVersion: version == 0 ? .noStream : .exactly(version),
                    events: [try NewEvent(ReferralBound(token: token, project: project, referral: referral,
                                                        guid: guid))],
                    metadata: metadata)
                return Bound(appAccountToken: token, offerCode: terms.offerCode, expiresAt: referral.windowEndsAt,
                             referral: referral)
            }
        }
    }
}
