import Domain
import EventStore
import Foundation
import Postgres

/// Records a fingerprint sent by the post-payment page's script (`POST /public/handoff/fingerprint`):
/// `FingerprintRecorded`, or nothing (`FingerprintCapture.decide` says why).
///
/// Only keyed hashes of IPs are kept (`LookupHash.ipAddress`); the user agent is sealed for the buyer. A project
/// with fingerprinting off records nothing. A capture racing a match cannot bring a spent row back: it appends with
/// the stream version it read before checking for `FingerprintMatched`, so a match committed in between fails its
/// append and `EventLog.transact` runs it again, which then sees the match. Runs the deployment-wide
/// `FingerprintSweep` of expired rows (at most once a minute per process).
public struct CaptureFingerprint: Sendable {
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

    /// The longest user agent kept (longer ones are cut; only the platform derived from it is used).
    public static let maxUserAgentBytes = 512

    private let context: IdentityContext
    private let sweep: FingerprintSweep

    public init(_ context: IdentityContext, sweep: FingerprintSweep) {
        self.context = context
        self.sweep = sweep
    }

    /// Records `capture` for the payment behind `facts`, seen from `clientIP` with `userAgent`, at `now`; answers
    /// what was decided (the page gets the same answer either way).
    @discardableResult
    public func run(_ capture: Capture, for facts: PostPaymentPageFacts.Facts, clientIP: String, userAgent: String?,
                    now: Date, metadata: EventMetadata) throws -> FingerprintCapture.Decision {
        let ipHash = LookupHash.ipAddress(clientIP, pepper: context.secrets.lookupPepper)
        var state = FingerprintCapture.State(fingerprintingOn: facts.settings.fingerprint, codeUsable: facts.usable,
                                             paidAt: facts.paidAt, ipUsable: ipHash != nil, alreadyMatched: false)
        guard case .record = FingerprintCapture.decide(state, now: now), let ipHash else {
            return FingerprintCapture.decide(state, now: now)
        }
        sweep.runIfDue(on: context.log.pool)
        let stream = FingerprintStreams.fingerprint(paymentId: facts.paymentId)
        return try context.log.transact(in: .org(facts.orgId.uuid), maxAttempts: 8) { transaction in
            let connection = transaction.connection
            // Lock the live row first (as a match does), so a capture and a match never wait on each other's locks
            // in opposite order; then read the version before the check: a match committed after this read moves
            // the stream and fails the append below.
            try connection.query("SELECT 1 FROM fingerprints WHERE org_id = $1::uuid AND payment_id = $2 FOR UPDATE",
                                 [.text(facts.orgId.description), .text(facts.paymentId)])
            let version = try transaction.streamVersion(org: facts.orgId.uuid, stream: stream)
            state.alreadyMatched = try !connection.query("""
                SELECT 1 FROM events WHERE org_id = $1::uuid AND stream_id = $2 AND event_type = $3 LIMIT 1
                """, [.text(facts.orgId.description), .text(stream), .text(FingerprintMatched.eventType)]).rows.isEmpty
            let decision = FingerprintCapture.decide(state, now: now)
            guard case .record(let expiresAt) = decision else { return decision }
            let agent = userAgent.map {
                String(decoding: Array($0.utf8.prefix(Self.maxUserAgentBytes)), as: UTF8.self)
            }
            let sealedAgent = try agent.flatMap {
                try context.subjectKeys.seal($0, field: .userAgent, org: facts.orgId.uuid,
                                             subject: facts.guid.description, on: connection)
            }
            let event = FingerprintRecorded(
                paymentId: facts.paymentId, guid: facts.guid.description, projectId: facts.projectId.description,
                platform: userAgent.flatMap(DevicePlatform.init(userAgent:))?.rawValue, screen: capture.screen.text,
                timezone: capture.timezone, language: capture.language,
                ipRef: try LookupRefs.ref(.ip, hash: ipHash, org: facts.orgId.uuid, guid: facts.guid.description,
                                          on: connection),
                userAgent: sealedAgent,
                paidAt: PaymentFields.text(facts.paidAt), expiresAt: PaymentFields.text(expiresAt),
                recordedAt: PaymentFields.text(now))
            try transaction.append(org: facts.orgId.uuid, stream: stream,
                                   expectedVersion: version == 0 ? .noStream : .exactly(version),
                                   events: [try NewEvent(event)], metadata: metadata)
            return decision
        }
    }
}
