import Domain
import EventStore
import Foundation
import Postgres

/// Fingerprints as commands on the event store: record one sent by the post-payment page, and resolve an app's
/// probe against the live ones (spending the match).
///
/// Only keyed hashes of IPs are kept (`LookupHash.ipAddress`); the user agent is sealed for the buyer. A project
/// with fingerprinting off records nothing. Two concurrent resolves cannot both spend one fingerprint: candidates
/// are read `FOR UPDATE`, the winner's `FingerprintMatched` deletes the row before it commits, and the loser, woken
/// after the commit, no longer sees it. A capture racing the match cannot bring the row back: it appends with the
/// stream version it read before checking for `FingerprintMatched`, so a match committed in between fails its
/// append and `transact` runs it again, which then sees the match. Both paths also run the deployment-wide
/// `FingerprintSweep` of expired rows (at most once a minute per process).
public struct FingerprintDirectory: Sendable {
    public let store: EventStore
    private let subjectKeys: SubjectKeys
    private let lookupPepper: [UInt8]
    let sweep: FingerprintSweep

    public init(store: EventStore, secrets: IdentitySecrets, sweep: FingerprintSweep = FingerprintSweep()) {
        self.store = store
        self.subjectKeys = SubjectKeys(masterKey: secrets.masterKey)
        self.lookupPepper = secrets.lookupPepper
        self.sweep = sweep
    }

    /// What the page's script sends, validated.
    public struct Capture: Sendable, Equatable {
        public var screen: ScreenSize
        public var timezone: String?
        public var language: String?

        public init(screen: ScreenSize, timezone: String?, language: String?) {
            self.screen = screen
            self.timezone = timezone
            self.language = language
        }
    }

    /// Why a capture recorded nothing (the answer to the page is the same either way).
    public enum Recording: Sendable, Equatable {
        case recorded
        case fingerprintingOff
        case codeNotUsable
        case tooLate
        case alreadyMatched
        case unusableIP
    }

    /// The longest user agent kept (longer ones are cut; only the platform derived from it is used).
    public static let maxUserAgentBytes = 512

    /// Records `capture` for the payment behind `facts`, seen from `clientIP` with `userAgent`, at `now`.
    @discardableResult
    public func record(_ capture: Capture, for facts: PostPaymentPages.Facts, clientIP: String, userAgent: String?,
                       now: Date, metadata: EventMetadata) throws -> Recording {
        guard facts.settings.fingerprint else { return .fingerprintingOff }
        guard facts.usable else { return .codeNotUsable }
        let expiresAt = facts.paidAt.addingTimeInterval(FingerprintMatch.exactWindow)
        guard now < expiresAt else { return .tooLate }
        guard let ipHash = LookupHash.ipAddress(clientIP, pepper: lookupPepper) else { return .unusableIP }
        sweep.runIfDue(on: store.pool)
        let stream = FingerprintStreams.fingerprint(paymentId: facts.paymentId)
        return try store.transact(maxAttempts: 8) { transaction in
            let connection = transaction.connection
            // Lock the live row first (as resolve does), so a capture and a resolve never wait on each other's locks
            // in opposite order; then read the version before the check: a match committed after this read moves
            // the stream and fails the append below.
            try connection.query("SELECT 1 FROM fingerprints WHERE org_id = $1::uuid AND payment_id = $2 FOR UPDATE",
                                 [.text(facts.orgId.description), .text(facts.paymentId)])
            let version = try transaction.streamVersion(org: facts.orgId.uuid, stream: stream)
            let matched = try connection.query("""
                SELECT 1 FROM events WHERE org_id = $1::uuid AND stream_id = $2 AND event_type = $3 LIMIT 1
                """, [.text(facts.orgId.description), .text(stream), .text(FingerprintMatched.eventType)])
            guard matched.rows.isEmpty else { return .alreadyMatched }
            let agent = userAgent.map {
                String(decoding: Array($0.utf8.prefix(Self.maxUserAgentBytes)), as: UTF8.self)
            }
            let sealedAgent = try agent.flatMap {
                try subjectKeys.seal($0, field: .userAgent, org: facts.orgId.uuid, subject: facts.guid.description,
                                     on: connection)
            }
            let event = FingerprintRecorded(
                paymentId: facts.paymentId, guid: facts.guid.description, projectId: facts.projectId.description,
                platform: userAgent.flatMap(DevicePlatform.init(userAgent:))?.rawValue, screen: capture.screen.text,
                timezone: capture.timezone, language: capture.language, ipHash: ipHash, userAgent: sealedAgent,
                paidAt: PaymentFields.text(facts.paidAt), expiresAt: PaymentFields.text(expiresAt),
                recordedAt: PaymentFields.text(now))
            try transaction.append(org: facts.orgId.uuid, stream: stream,
                                   expectedVersion: version == 0 ? .noStream : .exactly(version),
                                   events: [try NewEvent(event)], metadata: metadata)
            return .recorded
        }
    }

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

    /// A successful resolve.
    public struct Answer: Sendable, Equatable {
        public var guid: String
        public var method: FingerprintMatch.Method
    }

    /// Matches `question` from `clientIP` against the live fingerprints of `project` (in `org`) at `now`; on a match
    /// records `FingerprintMatched` (spending it) and answers the guid. Nil for a miss or an ambiguity.
    public func resolve(_ question: Question, clientIP: String, project: ProjectID, org: OrgID, now: Date,
                        metadata: EventMetadata) throws -> Answer? {
        guard let ipHash = LookupHash.ipAddress(clientIP, pepper: lookupPepper) else { return nil }
        sweep.runIfDue(on: store.pool)
        let probe = FingerprintMatch.Probe(ipHash: ipHash, platform: question.platform, screen: question.screen,
                                           timezone: question.timezone, language: question.language)
        return try store.transact(maxAttempts: 5) { transaction in
            let rows = try transaction.connection.query("""
                SELECT payment_id, guid::text AS guid, platform, screen, timezone, language, ip_hash,
                    to_char(paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS paid_at
                FROM fingerprints
                WHERE org_id = $1::uuid AND project_id = $2::uuid AND ip_hash = $3 AND expires_at >= $4::timestamptz
                ORDER BY payment_id FOR UPDATE
                """, [.text(org.description), .text(project.description), .text(ipHash),
                      .text(PaymentFields.text(now))]).rows
            let candidates = try rows.compactMap { row -> FingerprintMatch.Candidate? in
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
            guard case .matched(let id, let guid, let method) = FingerprintMatch.match(probe, among: candidates,
                                                                                      now: now) else { return nil }
            let event = FingerprintMatched(paymentId: id, guid: guid, projectId: project.description,
                                           matchMethod: method.rawValue, matchedAt: PaymentFields.text(now))
            try transaction.append(org: org.uuid, stream: FingerprintStreams.fingerprint(paymentId: id),
                                   expectedVersion: .any, events: [try NewEvent(event)], metadata: metadata)
            return Answer(guid: guid, method: method)
        }
    }
}
