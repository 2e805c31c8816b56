import Domain
import EventStore
import Foundation
import Postgres

/// Matches an app's probe against a project's live fingerprints (`POST /public/handoff/resolve-by-fingerprint`)
/// with `FingerprintMatch.match`; on a match records `FingerprintMatched`, which spends the fingerprint.
///
/// Two concurrent matches cannot both spend one fingerprint: candidates are read `FOR UPDATE`, the winner's
/// `FingerprintMatched` deletes the row before it commits, and the loser, woken after the commit, no longer sees it.
public struct MatchFingerprint: Sendable {
    /// The probe an app sends, before the server adds its IP.
    public struct Question: Sendable, Equatable {
        public var platform: DevicePlatform
        public var screen: ScreenSize
        public var timezone: String?
        public var language: String?

        public init(platform: DevicePlatform, screen: ScreenSize, timezone: String?, language: String?) {
            self.platform = platform
            self.screen = screen
            self.timezone = timezone
            self.language = language
        }
    }

    /// A successful match.
    public struct Answer: Sendable, Equatable {
        public var guid: String
        public var method: FingerprintMatch.Method
    }

    private let context: IdentityContext
    private let sweep: FingerprintSweep

    public init(_ context: IdentityContext, sweep: FingerprintSweep) {
        self.context = context
        self.sweep = sweep
    }

    /// Matches `question` from `clientIP` against the live fingerprints of `project` (in `org`) at `now`; nil for a
    /// miss, an ambiguity or a project with fingerprinting off (`enabled` false). Every live fingerprint from the
    /// caller's IP that did not answer gets a `FingerprintRefused` with its reason (`FingerprintMatch.refusals`, or
    /// `disabled`), so its buyer's timeline can tell why.
    public func run(_ question: Question, clientIP: String, project: ProjectID, org: OrgID, enabled: Bool = true,
                    now: Date, metadata: EventMetadata) throws -> Answer? {
        guard let ipHash = LookupHash.ipAddress(clientIP, pepper: context.secrets.lookupPepper) else { return nil }
        sweep.runIfDue(on: context.log.pool)
        let probe = FingerprintMatch.Probe(ipHash: ipHash, platform: question.platform, screen: question.screen,
                                           timezone: question.timezone, language: question.language)
        return try context.log.transact(in: .org(org.uuid), maxAttempts: 5) { transaction in
            let rows = try transaction.connection.query("""
                SELECT payment_id, guid, platform, screen, timezone, language, ip_hash,
                    to_char(paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS paid_at
                FROM fingerprints
                WHERE org_id = $1::uuid AND project_id = $2::uuid AND ip_hash = $3 AND expires_at >= $4::timestamptz
                ORDER BY payment_id FOR UPDATE
                """, [.text(org.description), .text(project.description), .text(ipHash),
                      .text(PaymentFields.text(now))]).rows
            let candidates = try rows.compactMap(Self.candidate)
            guard enabled else {
                try refuse(candidates.map { ($0, .disabled) }, project: project, org: org, now: now,
                           metadata: metadata, in: transaction)
                return nil
            }
            let outcome = FingerprintMatch.match(probe, among: candidates, now: now)
            guard case .matched(let id, let guid, let method) = outcome else {
                try refuse(FingerprintMatch.refusals(probe, among: candidates, now: now, outcome: outcome),
                           project: project, org: org, now: now, metadata: metadata, in: transaction)
                return nil
            }
            let event = FingerprintMatched(paymentId: id, guid: guid, projectId: project.description,
                                           matchMethod: method.rawValue, matchedAt: PaymentFields.text(now))
            try transaction.append(org: org.uuid, stream: FingerprintStreams.fingerprint(paymentId: id),
                                   expectedVersion: .any, events: [try NewEvent(event)], metadata: metadata)
            return Answer(guid: guid, method: method)
        }
    }

    /// Appends one `FingerprintRefused` per refused candidate, each to its payment's refusal stream.
    private func refuse(_ refusals: [(FingerprintMatch.Candidate, FingerprintRefusal)], project: ProjectID,
                        org: OrgID, now: Date, metadata: EventMetadata, in transaction: EventTransaction) throws {
        for (candidate, refusal) in refusals {
            let event = FingerprintRefused(paymentId: candidate.id, guid: candidate.guid,
                                           projectId: project.description, refusal: refusal,
                                           refusedAt: PaymentFields.text(now))
            try transaction.append(org: org.uuid, stream: FingerprintStreams.refusals(paymentId: candidate.id),
                                   expectedVersion: .any, events: [try NewEvent(event)], metadata: metadata)
        }
    }

    /// A live fingerprint row as the matcher sees it; nil for a row whose time does not read back.
    private static func candidate(_ row: Row) throws -> FingerprintMatch.Candidate? {
        guard case .success(let paidAt) = PaymentFields.rfc3339(try row.string("paid_at")) else { return nil }
        let screen = row["screen"].flatMap { text -> ScreenSize? in
            if case .success(let size) = ScreenSize.parse(text) { return size }
            return nil
        }
        return FingerprintMatch.Candidate(
            id: try row.string("payment_id"), guid: try row.string("guid"), ipHash: try row.string("ip_hash"),
            platform: row["platform"].flatMap(DevicePlatform.init(rawValue:)), screen: screen,
            timezone: row["timezone"], language: row["language"], paidAt: paidAt)
    }
}
