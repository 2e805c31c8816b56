import Foundation

/// The decider of the `recovery-mail` worker: whether one recovery request sends a mail, and for which buyers.
///
/// The shell reads, within the request's organization, every buyer that has the address's lookup hash attached and
/// a payment (each with its newest payment, newest first), the instant of the last recovery mail to that address
/// (under a row lock), and whether the sealed address still opens, then passes the worker's clock as `now`. The mail
/// names every such buyer alike, each with its own code and purchase line, so the mailbox owner picks theirs and no
/// buyer is preferred because someone else verified the address (issue 12 §1). Every skip is silent to the
/// requester; `Skip.explanation` is for the job log only.
public enum EmailRecovery {
    /// At most one mail per address per this many seconds (20 minutes).
    public static let gap: TimeInterval = 20 * 60
    /// The most buyers one mail names (their newest payments first); an address shared by more buyers is a support
    /// case, and a mail of dozens of codes helps nobody.
    public static let maxBuyersPerMail = 10

    /// One buyer a recovery mail names, with the purchase the mail shows for it.
    public struct Candidate: Sendable, Equatable {
        /// A buyer with the address and a payment.
        public var guid: String
        /// That buyer's newest payment, which its recovery code is minted for.
        public var paymentId: String
        /// The payment's product id, amount in minor units and ISO 4217 currency, and when it was recorded: the
        /// purchase line of the mail.
        public var productId: String
        public var amount: Int
        public var currency: String
        public var paidAt: Date

        public init(guid: String, paymentId: String, productId: String, amount: Int, currency: String,
                    paidAt: Date) {
            self.guid = guid
            self.paymentId = paymentId
            self.productId = productId
            self.amount = amount
            self.currency = currency
            self.paidAt = paidAt
        }
    }

    /// What the worker read for one request.
    public struct State: Sendable, Equatable {
        /// Every buyer with the address and a payment, newest payment first; empty when none.
        public var candidates: [Candidate]
        /// When the last recovery mail went to the address; nil for never.
        public var lastMailAt: Date?
        /// Whether the sealed address still opens (false once the address was erased).
        public var addressReadable: Bool

        public init(candidates: [Candidate], lastMailAt: Date?, addressReadable: Bool) {
            self.candidates = candidates
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
        /// Mint a recovery code for each candidate's payment, mail them all in one mail, and move the address's
        /// last-mail instant to now.
        case send([Candidate])
        /// Send nothing.
        case skip(Skip)
    }

    /// Decides the request read as `state` at `now`.
    ///
    /// In order: no candidate, a mail less than `gap` seconds before `now` (exactly `gap` later sends; a last mail
    /// after `now`, by clock skew, counts as too soon), an erased address; else send, naming the first
    /// `maxBuyersPerMail` candidates.
    public static func decide(_ state: State, now: Date, gap: TimeInterval = EmailRecovery.gap) -> Decision {
        guard !state.candidates.isEmpty else { return .skip(.noBuyer) }
        if let lastMailAt = state.lastMailAt, now.timeIntervalSince(lastMailAt) < gap { return .skip(.tooSoon) }
        guard state.addressReadable else { return .skip(.erased) }
        return .send(Array(state.candidates.prefix(maxBuyersPerMail)))
    }
}
