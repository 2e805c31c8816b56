import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Records a lead form an app's SDK sent (`POST /v1/m/lead`): `AppLeadReceived`, contact data sealed for the install
/// (`AppLeadStreams.installSubject`) — unless it repeats a lead of the same app from the last two minutes
/// (`AppLeadDedupe`), which records nothing.
///
/// The app's leads are serialized by a transaction-scoped advisory lock, so two copies of one submit racing each
/// other still record one lead.
public struct RecordAppLead: Sendable {
    private let context: IdentityContext

    public init(_ context: IdentityContext) { self.context = context }

    /// A lead as the edge read it; `inst` is still the SDK's install id (hashed here, never stored in clear).
    public struct Submission: Sendable, Equatable {
        public var orgId: OrgID
        public var projectId: ProjectID
        public var appId: AppID
        public var install: String
        public var sessionId: String?
        public var form: String
        public var eventId: String?
        public var email: EmailAddress?
        public var firstName: String?
        public var message: String?
        public var marketingConsent: Bool
        public var fillMs: Int?
        /// For a signup lead ("signup is lead"): the batch's identity hashes as compact JSON; nil for a lead form.
        public var signupIdentity: String?

        public init(orgId: OrgID, projectId: ProjectID, appId: AppID, install: String, sessionId: String?,
                    form: String, eventId: String?, email: EmailAddress?, firstName: String?, message: String?,
                    marketingConsent: Bool, fillMs: Int?, signupIdentity: String? = nil) {
            self.orgId = orgId
            self.projectId = projectId
            self.appId = appId
            self.install = install
            self.sessionId = sessionId
            self.form = form
            self.eventId = eventId
            self.email = email
            self.firstName = firstName
            self.message = message
            self.marketingConsent = marketingConsent
            self.fillMs = fillMs
            self.signupIdentity = signupIdentity
        }
    }

    /// What became of a submission.
    public enum Outcome: Sendable, Equatable {
        case recorded(leadId: UUID)
        /// A double submit: an equal lead was received within the window; nothing recorded.
        case repeated
    }

    /// The install's keyed hash, HMAC-SHA256(lookup pepper, `appId:inst`) in hex — as batches store it.
    public func installHash(app: AppID, install: String) -> String {
        Hex.encode(HMAC.sha256(key: context.secrets.lookupPepper, message: Array("\(app):\(install)".utf8)))
    }

    /// Records `submission` unless it repeats a recent lead.
    public func run(_ submission: Submission, metadata: EventMetadata) throws -> Outcome {
        let install = installHash(app: submission.appId, install: submission.install)
        let key = AppLeadDedupe.Key(eventId: submission.eventId, installHash: install, form: submission.form,
                                    contactHash: contactHash(submission))
        let org = submission.orgId.uuid
        return try context.log.transact(in: .org(org)) { transaction in
            let connection = transaction.connection
            try connection.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
                                 [.text("app-lead:\(submission.appId)")])
            let recent = try connection.query("""
                SELECT event_id, install_hash, form, contact_hash FROM app_leads
                WHERE org_id = $1::uuid AND app_id = $2::uuid
                    AND received_at > now() - make_interval(secs => $3::double precision)
                """, [.text(submission.orgId.description), .text(submission.appId.description),
                      .text(String(AppLeadDedupe.window))]).rows.map {
                AppLeadDedupe.Key(eventId: $0["event_id"], installHash: try $0.string("install_hash"),
                                  form: try $0.string("form"), contactHash: try $0.string("contact_hash"))
            }
            let signup = submission.signupIdentity != nil
            var signedUp = false
            if signup {
                signedUp = try !connection.query("""
                    SELECT 1 FROM app_leads WHERE org_id = $1::uuid AND app_id = $2::uuid AND install_hash = $3
                        AND source = 'signup'
                    """, [.text(submission.orgId.description), .text(submission.appId.description), .text(install)])
                    .rows.isEmpty
            }
            if AppLeadDedupe.isRepeat(key, of: recent, signup: signup, installSignedUp: signedUp) { return .repeated }
            let subject = AppLeadStreams.installSubject(installHash: install)
            func seal(_ text: String?, _ field: PersonalDataField) throws -> SealedValue? {
                guard let text else { return nil }
                return try context.subjectKeys.seal(text, field: field, org: org, subject: subject, on: connection)
            }
            let leadId = SecureRandom.uuid()
            var received = AppLeadReceived(
                leadId: leadId, appId: submission.appId, projectId: submission.projectId, installHash: install,
                sessionId: submission.sessionId, form: submission.form, eventId: submission.eventId,
                contactHash: key.contactHash, email: try seal(submission.email?.text, .email),
                emailRef: try submission.email.map {
                    try LookupRefs.ref(.email, hash: context.emailHash($0), org: org, on: connection)
                },
                firstName: try seal(submission.firstName, .firstName),
                message: try seal(submission.message, .message), marketingConsent: submission.marketingConsent,
                fillMs: submission.fillMs)
            if let identity = submission.signupIdentity {
                received.source = "signup"
                received.identity = try seal(identity, .identity)
            }
            try transaction.append(org: org, stream: AppLeadStreams.lead(leadId), expectedVersion: .noStream,
                                   events: [try NewEvent(received)], metadata: metadata)
            return .recorded(leadId: leadId)
        }
    }

    /// The keyed hash of the contact the double-submit rule compares: the e-mail as its lookup hash normalizes it,
    /// the first name and the message, each length-prefixed so no two contacts spell the same bytes.
    func contactHash(_ submission: Submission) -> String {
        var bytes: [UInt8] = []
        for part in [submission.email.map(context.emailHash), submission.firstName, submission.message] {
            let utf8 = Array((part ?? "").utf8)
            bytes += [part == nil ? 0 : 1] + withUnsafeBytes(of: UInt32(utf8.count).bigEndian, Array.init) + utf8
        }
        let message = Array("app-lead-contact:".utf8) + bytes
        return Hex.encode(HMAC.sha256(key: context.secrets.lookupPepper, message: message))
    }
}
