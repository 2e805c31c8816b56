import Domain
import EventStore
import Foundation
import Postgres

/// Reads what the post-payment page shows from its token: the handoff code, whether it still works, the payment's
/// project settings and install token. Read-only; the token is a `PageToken`.
public struct PostPaymentPageFacts: Sendable {
    private let context: IdentityContext
    private let projects: ProjectLookup

    public init(_ context: IdentityContext, projects: ProjectLookup) {
        self.context = context
        self.projects = projects
    }

    /// What one page shows and what a fingerprint sent from it is about.
    public struct Facts: Sendable, Equatable {
        public var code: HandoffCode
        /// False once the code was redeemed or expired (then the page shows neither the code nor its app link).
        public var usable: Bool
        public var orgId: OrgID
        public var guid: BuyerGuid
        public var paymentId: String
        public var projectId: ProjectID
        public var settings: ProjectSettings
        /// The install token in clear while the page is usable and the token is neither spent nor expired (for the
        /// Play and tracker links); nil otherwise, so a spent page cannot hand out a token that still resolves.
        public var installToken: InstallToken?
        /// The paywall the payment was made on, when the tenant said (the tracker link carries it).
        public var paywallId: String?
        /// When the payment was recorded (service clock): the handoff code's expiry minus its 72 h lifetime.
        public var paidAt: Date
        /// Whether the page's opening is already recorded (`RecordPageOpened`).
        public var openedBefore: Bool = false
    }

    /// The facts behind `token` at `now`, or nil for a token that does not open, names no recorded code, or whose
    /// codes have both expired (a page token expires with the later of the two) — one answer for every failure.
    public func facts(token: String, now: Date) throws -> Facts? {
        guard let code = context.pageTokens.open(token) else { return nil }
        let hash = context.codes.codeHash(code.text)
        // The code's hash names its org (`handoff_code_org`): the reads run under that org's scope only.
        let found = try context.log.read(in: .orgOf(.handoffCode, .text(hash))) { connection -> (Facts, ProjectID)? in
            guard let row = try connection.query("""
                SELECT c.org_id::text AS org_id, c.guid, c.payment_id, p.project_id::text AS project_id,
                    p.paywall_id,
                    c.redeemed_at IS NOT NULL AS redeemed,
                    to_char(c.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS expires_at,
                    i.sealed_code AS install_code, i.redeemed_at IS NOT NULL AS install_redeemed,
                    to_char(i.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS install_expires_at,
                    EXISTS (SELECT 1 FROM events e WHERE e.org_id = c.org_id
                        AND e.stream_id = 'page-' || c.payment_id) AS opened_before
                FROM handoff_codes c
                JOIN payments p ON p.org_id = c.org_id AND p.payment_id = c.payment_id
                LEFT JOIN handoff_codes i ON i.org_id = c.org_id AND i.payment_id = c.payment_id AND i.kind = 'install'
                WHERE c.code_hash = $1 AND c.kind = 'handoff'
                """, [.text(hash)]).rows.first,
                case .success(let org) = OrgID.parse(try row.string("org_id")),
                let guid = BuyerGuid(stored: try row.string("guid")),
                case .success(let project) = ProjectID.parse(try row.string("project_id")),
                case .success(let expiry) = PaymentFields.rfc3339(try row.string("expires_at"))
            else { return nil }
            var installExpiry: Date?
            if let text = row["install_expires_at"], case .success(let date) = PaymentFields.rfc3339(text) {
                installExpiry = date
            }
            // The page lives as long as the later of its two codes; after that its token opens nothing.
            guard now < max(expiry, installExpiry ?? expiry) else { return nil }
            let usable = !(try row.bool("redeemed")) && now < expiry
            let installLive = !(try row.bool("install_redeemed")) && installExpiry.map { now < $0 } == true
            var install: InstallToken?
            // A spent or expired page shows neither its code nor the install token (which would still resolve).
            if usable, installLive, let text = row["install_code"], let sealed = SealedValue(text),
               case .value(let opened) = try context.subjectKeys.reveal(sealed, field: .installToken, org: org.uuid,
                                                                  subject: guid.description, on: connection) {
                install = InstallToken.parse(opened)
            }
            let facts = Facts(code: code, usable: usable, orgId: org,
                              guid: guid, paymentId: try row.string("payment_id"), projectId: project,
                              settings: ProjectSettings(name: ""), installToken: install, paywallId: row["paywall_id"],
                              paidAt: expiry.addingTimeInterval(-HandoffCode.lifetime),
                              openedBefore: try row.bool("opened_before"))
            return (facts, project)
        }
        // The settings come from the project lookup (one reader of `projects`), after the code row is known.
        guard let found, let project = try projects.project(found.1, org: found.0.orgId) else { return nil }
        var facts = found.0
        facts.settings = project.settings
        return facts
    }
}
