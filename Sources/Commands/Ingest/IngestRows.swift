import Domain
import Foundation

/// What one stored batch writes (migration 0029): its session, events and screen views, each already placed on its
/// UTC day by the corrected time. Built by the batch route from a parsed, admitted batch.
public struct IngestRows: Sendable, Equatable {
    /// The batch's session (`sid`).
    public struct Session: Sendable, Equatable {
        public var sessionId: String
        public var startedAt: Date
        public var lastSeenAt: Date
        /// The native SDK (`X3Kit`, `X3Android`) and its version, from the user agent.
        public var sdk: String?
        public var sdkVersion: String?
        /// The wrapper the app is built with (`RN`, `Flutter`) and its version; nil without one.
        public var wrapper: String?
        public var wrapperVersion: String?
        public var osVersion: String?
        public var appVersion: String?
        /// `cs` as sent.
        public var consent: String
        /// The app's `session.timeoutMs`: a batch whose activity is more than this after the stored session's last
        /// activity starts a new session (a new part of the `sid`, migration 0044).
        public var timeoutMs: Int

        public init(sessionId: String, startedAt: Date, lastSeenAt: Date, sdk: String?, sdkVersion: String?,
                    wrapper: String? = nil, wrapperVersion: String? = nil, osVersion: String?, appVersion: String?,
                    consent: String, timeoutMs: Int = IngestSettings.defaults.sessionTimeoutMs) {
            self.sessionId = sessionId
            self.startedAt = startedAt
            self.lastSeenAt = lastSeenAt
            self.sdk = sdk
            self.sdkVersion = sdkVersion
            self.wrapper = wrapper
            self.wrapperVersion = wrapperVersion
            self.timeoutMs = timeoutMs
            self.osVersion = osVersion
            self.appVersion = appVersion
            self.consent = consent
        }
    }

    /// One event (`ev[]`): deduplicated by session and `n`.
    public struct Event: Sendable, Equatable {
        public var sessionId: String
        public var n: Int
        public var name: String
        public var occurredAt: Date
        /// `p` as JSON text, or nil.
        public var props: String?

        public init(sessionId: String, n: Int, name: String, occurredAt: Date, props: String?) {
            self.sessionId = sessionId
            self.n = n
            self.name = name
            self.occurredAt = occurredAt
            self.props = props
        }
    }

    /// One screen view (`scr[]`): a higher `seq` of the same view replaces it.
    public struct ScreenView: Sendable, Equatable {
        public var sessionId: String
        public var viewId: String
        public var seq: Int
        public var startedAt: Date
        public var endedAt: Date?
        public var nav: String?
        public var path: String?
        public var engagedMs: Int?
        public var taps: Int?
        public var itaps: Int?

        public init(sessionId: String, viewId: String, seq: Int, startedAt: Date, endedAt: Date?, nav: String?,
                    path: String?, engagedMs: Int?, taps: Int?, itaps: Int?) {
            self.sessionId = sessionId
            self.viewId = viewId
            self.seq = seq
            self.startedAt = startedAt
            self.endedAt = endedAt
            self.nav = nav
            self.path = path
            self.engagedMs = engagedMs
            self.taps = taps
            self.itaps = itaps
        }
    }

    public var orgId: OrgID
    public var projectId: ProjectID
    public var appId: AppID
    /// The install (`inst`) as a keyed hash, lowercase hex of 64 digits: the raw id is never stored.
    public var installHash: String
    public var session: Session
    public var events: [Event]
    public var screenViews: [ScreenView]
    /// The batch's `id` account tokens (kind `xid`/`em`/`emg`/`lid` → SHA-256 hex as sent); empty without one.
    public var identity: [String: String]
    /// Whether the batch's `cs` granted attribution (the `identity` tier needs it).
    public var attributionGranted: Bool
    /// The batch's `dp` (SHA-256 hex of the install's erase secret), kept only if the install has none yet.
    public var eraseProof: String?

    public init(orgId: OrgID, projectId: ProjectID, appId: AppID, installHash: String, session: Session,
                events: [Event], screenViews: [ScreenView], identity: [String: String] = [:],
                attributionGranted: Bool = false, eraseProof: String? = nil) {
        self.identity = identity
        self.attributionGranted = attributionGranted
        self.eraseProof = eraseProof
        self.orgId = orgId
        self.projectId = projectId
        self.appId = appId
        self.installHash = installHash
        self.session = session
        self.events = events
        self.screenViews = screenViews
    }
}
