import Foundation

/// The decider of `POST /public/handoff/email-recovery/request`: which log a request goes to, and whether its
/// address is kept.
///
/// The endpoint answers every well-formed request alike, so it records every one with the same work; this only
/// chooses where, and whether the sealed address is a placeholder.
public enum EmailRecoveryRequest {
    /// The log a request is appended to.
    public enum Log: Sendable, Equatable {
        /// The log of the organization that owns the named project.
        case organization(OrgID)
        /// The deployment's log of requests naming a project nobody has.
        case unknownProject
    }

    /// Where and how the request is recorded.
    public struct Decision: Sendable, Equatable {
        public var log: Log
        /// Seal a placeholder instead of the address: the address was erased, so nothing personal is kept, but the
        /// request costs the same work as any other.
        public var sealPlaceholder: Bool

        public init(log: Log, sealPlaceholder: Bool) {
            self.log = log
            self.sealPlaceholder = sealPlaceholder
        }
    }

    /// Decides for a request whose project belongs to `projectOrg` (nil = no such project) and whose address was
    /// erased or not.
    public static func decide(projectOrg: OrgID?, addressErased: Bool) -> Decision {
        Decision(log: projectOrg.map(Log.organization) ?? .unknownProject, sealPlaceholder: addressErased)
    }
}
