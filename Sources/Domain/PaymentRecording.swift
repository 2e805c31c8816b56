import Foundation

/// The decider of `POST /s2s/v1/payments`: whether a payment is a repeat, a conflict, a foreign buyer's, or new, and
/// what a new one does to its buyer.
///
/// Idempotent by (organization, `paymentId`): the shell reads the payment stored under the pair and what the log
/// knows of the `guid` (under the same transaction), passes them here, and on `record` appends the buyer's event and
/// the payment's. A stored payment is judged by its body hash alone, before the buyer is looked at, so a repeat
/// answers the stored payment even when the buyer has changed since.
public enum PaymentRecording {
    /// A payment already recorded under the command's (organization, `paymentId`).
    public struct Stored: Sendable, Equatable {
        /// The keyed hash of the body it was first recorded with.
        public var bodyHash: String
        public var guid: BuyerGuid
        public var projectId: ProjectID

        public init(bodyHash: String, guid: BuyerGuid, projectId: ProjectID) {
            self.bodyHash = bodyHash
            self.guid = guid
            self.projectId = projectId
        }
    }

    /// What the log knows of the command's `guid`.
    public struct Buyer: Sendable, Equatable {
        /// The organization the guid was first seen in.
        public var homeOrg: OrgID
        /// Whether the buyer already has the command's e-mail attached (false when the command has none).
        public var hasThisEmail: Bool

        public init(homeOrg: OrgID, hasThisEmail: Bool) {
            self.homeOrg = homeOrg
            self.hasThisEmail = hasThisEmail
        }
    }

    /// Everything the decision reads.
    public struct State: Sendable, Equatable {
        /// The payment under (organization, `paymentId`); nil when none.
        public var stored: Stored?
        /// The buyer with the command's guid in any organization; nil when the guid was never seen.
        public var buyer: Buyer?

        public init(stored: Stored?, buyer: Buyer?) {
            self.stored = stored
            self.buyer = buyer
        }
    }

    /// One payment as the tenant sent it, reduced to what the rules read.
    public struct Command: Sendable, Equatable {
        /// The organization of the secret key that sent it.
        public var org: OrgID
        public var guid: BuyerGuid
        /// The keyed hash of the canonical body; compared in constant time with a stored one.
        public var bodyHash: String
        /// Whether the body carries an `email`.
        public var hasEmail: Bool

        public init(org: OrgID, guid: BuyerGuid, bodyHash: String, hasEmail: Bool) {
            self.org = org
            self.guid = guid
            self.bodyHash = bodyHash
            self.hasEmail = hasEmail
        }
    }

    /// What recording a new payment does to its buyer first.
    public enum BuyerStep: Sendable, Equatable {
        /// The guid is new: create the buyer (with the e-mail, when given) in this organization.
        case create
        /// The buyer exists without this e-mail: attach it.
        case attachEmail
        /// The buyer exists and needs nothing.
        case none
    }

    /// The outcome of a recording attempt.
    public enum Decision: Sendable, Equatable {
        /// The same body was already recorded: answer the stored payment, record nothing.
        case repeatOf(Stored)
        /// A new payment: perform the buyer step, then record the payment.
        case record(BuyerStep)
    }

    /// Decides recording `command` against `state`.
    ///
    /// In order: a stored payment with an equal body hash is a repeat; one with another body hash is 409
    /// `PAYMENT_CONFLICT`; a guid whose home is another organization is 400 `VISITOR_ID_FOREIGN_PROJECT`; an unseen
    /// guid creates its buyer; a given e-mail the buyer lacks is attached.
    public static func decide(_ state: State, _ command: Command) -> Result<Decision, Refusal> {
        if let stored = state.stored {
            guard sameHash(stored.bodyHash, command.bodyHash) else {
                return .failure(Refusal(kind: .conflict, code: .paymentConflict, field: "paymentId",
                                        message: "payment 'paymentId' was already recorded with a different body"))
            }
            return .success(.repeatOf(stored))
        }
        guard let buyer = state.buyer else { return .success(.record(.create)) }
        guard buyer.homeOrg == command.org else { return .failure(.foreignBuyer()) }
        return .success(.record(command.hasEmail && !buyer.hasThisEmail ? .attachEmail : .none))
    }

    /// Whether two hashes are byte-wise equal, in time that depends on their lengths only (no early exit).
    private static func sameHash(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        var difference = UInt(bitPattern: left.count ^ right.count)
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            difference |= UInt(a ^ b)
        }
        return difference == 0
    }
}
