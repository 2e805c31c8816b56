import Foundation

/// The decider of `GET /public/handoff/resolve`: whether a handoff code or install token may be redeemed now, and
/// what redeeming it records.
///
/// Pure: the shell reads the code's row (under a row lock), passes it with the service clock's `now`, and appends
/// the events this returns. A code is live while `now < expiresAt` and it was never redeemed; every other case is one
/// refusal that the edge answers with the same 404, so a caller cannot tell unknown, expired and spent apart.
public enum HandoffRedemption {
    /// The two kinds of one-time code, each with its lifetime (`HandoffCode.lifetime`, `InstallToken.lifetime`).
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A handoff code from the post-payment page or a recovery mail (72 h).
        case handoff
        /// An install token carried through the Play Install Referrer or a tracker link (30 days).
        case install

        /// Seconds a code of this kind lives from its minting.
        public var lifetime: TimeInterval {
            switch self {
            case .handoff: HandoffCode.lifetime
            case .install: InstallToken.lifetime
            }
        }
    }

    /// Where a handoff code came from: minted with a payment (its post-payment page and return link) or mailed to
    /// an address by a recovery mail.
    public enum Source: String, Hashable, Sendable, CaseIterable {
        case payment
        case recovery
    }

    /// What the store knows about one code.
    public struct Code: Hashable, Sendable {
        public var kind: Kind
        public var expiresAt: Date
        /// Nil while the code was never redeemed.
        public var redeemedAt: Date?
        /// The lookup hash of the e-mail this code verifies when redeemed (handoff codes of a payment with an
        /// e-mail, recovery codes); nil for none.
        public var emailHash: String?
        /// Whether the buyer has `emailHash` attached and already verified; nil when the buyer has no such e-mail
        /// (then nothing is verified).
        public var emailVerified: Bool?
        /// Where the code came from.
        public var source: Source
        /// The rule of the payment's project for what verifies an e-mail address.
        public var emailVerification: EmailVerification

        public init(kind: Kind, expiresAt: Date, redeemedAt: Date?, emailHash: String?, emailVerified: Bool?,
                    source: Source = .payment, emailVerification: EmailVerification = .payment) {
            self.kind = kind
            self.source = source
            self.emailVerification = emailVerification
            self.expiresAt = expiresAt
            self.redeemedAt = redeemedAt
            self.emailHash = emailHash
            self.emailVerified = emailVerified
        }
    }

    /// What redeeming records, in order.
    public enum Event: Hashable, Sendable {
        /// The code is spent at this instant.
        case redeemed(at: Date)
        /// The buyer's e-mail with this lookup hash is verified from now on.
        case emailVerified(emailHash: String)
    }

    /// Why a code cannot be redeemed; all three answer the same 404.
    public enum Refusal: Hashable, Sendable {
        case unknown
        case expired
        case spent
    }

    /// The outcome of a redemption attempt.
    public enum Decision: Hashable, Sendable {
        case redeem([Event])
        case refused(Refusal)
    }

    /// Decides a redemption of `code` (nil = no such code) at `now`.
    ///
    /// Spent wins over expired; a code expires at `expiresAt` exactly. A live handoff code with an e-mail the buyer
    /// has attached and not yet verified also verifies it when the project's rule lets its source verify
    /// (`EmailVerification.verifies`: any handoff code under `payment`, only a mailed one under `mailbox`); install
    /// tokens never verify an e-mail, and an already verified e-mail records nothing more.
    public static func decide(_ code: Code?, now: Date) -> Decision {
        guard let code else { return .refused(.unknown) }
        if code.redeemedAt != nil { return .refused(.spent) }
        if now >= code.expiresAt { return .refused(.expired) }
        var events: [Event] = [.redeemed(at: now)]
        if code.kind == .handoff, let emailHash = code.emailHash, code.emailVerified == false,
           code.emailVerification.verifies(codeFrom: code.source) {
            events.append(.emailVerified(emailHash: emailHash))
        }
        return .redeem(events)
    }
}
