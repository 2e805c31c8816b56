import Foundation

/// The decider of the `recovery-mail` worker: whether one recovery request sends a mail, and to which buyer.
///
/// The shell reads, within the request's organization, the buyer with a payment under the address's lookup hash, the
/// instant of the last recovery mail to that address (under a row lock), and whether the sealed address still opens,
/// then passes the worker's clock as `now`. Every skip is silent to the requester; `Skip.explanation` is for the job
/// log only.
public enum EmailRecovery {
    /// At most one mail per address per this many seconds (20 minutes).
    public static let gap: TimeInterval = 20 * 60

    /// The buyer a recovery mail is for.
    public struct Candidate: Sendable, Equatable {
        /// The buyer with a payment under the address (of its newest payment).
        public var guid: String
        /// The newest payment of that buyer under the address, which the recovery code is minted for.
        public var paymentId: String

        public init(guid: String, paymentId: String) {
            self.guid = guid
            self.paymentId = paymentId
        }
    }

    /// What the worker read for one request.
    public struct State: Sendable, Equatable {
        /// Nil when no buyer with a payment has the address.
        public var candidate: Candidate?
        /// When the last recovery mail went to the address; nil for never.
        public var lastMailAt: Date?
        /// Whether the sealed address still opens (false once the address was erased).
        public var addressReadable: Bool

        public init(candidate: Candidate?, lastMailAt: Date?, addressReadable: Bool) {
            self.candidate = candidate
            self.lastMailAt = lastMailAt
            self.addressReadable = addressReadable
        }
    }

    /// Why no mail is sent.
    public enum Skip: String, Sendable, Equatable {
        case noBuyer
        case tooSoon
        case erased

        /// The sentence the job log records.
        public var explanation: String {
            switch self {
            case .noBuyer: "no buyer with a payment has this address"
            case .tooSoon: "a recovery mail went to this address less than 20 minutes ago"
            case .erased: "the address was erased"
            }
        }
    }

    /// What the worker does with the request.
    public enum Decision: Sendable, Equatable {
        /// Mint a recovery code for the candidate's payment, mail it, and move the address's last-mail instant to now.
        case send(Candidate)
        /// Send nothing.
        case skip(Skip)
    }

    /// Decides the request read as `state` at `now`.
    ///
    /// In order: no candidate, a mail less than `gap` seconds before `now` (exactly `gap` later sends; a last mail
    /// after `now`, by clock skew, counts as too soon), an erased address; else send.
    public static func decide(_ state: State, now: Date, gap: TimeInterval = EmailRecovery.gap) -> Decision {
        guard let candidate = state.candidate else { return .skip(.noBuyer) }
        if let lastMailAt = state.lastMailAt, now.timeIntervalSince(lastMailAt) < gap { return .skip(.tooSoon) }
        guard state.addressReadable else { return .skip(.erased) }
        return .send(candidate)
    }
}
