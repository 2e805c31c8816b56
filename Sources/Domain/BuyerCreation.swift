import Foundation

/// The decider of `POST /s2s/v1/users`: find the buyer the tenant names, or create one.
///
/// The shell looks up, within the calling organization, the guid of the command's `externalId` and the guids whose
/// verified e-mail is the command's `email`, and draws a fresh guid from a CSPRNG before calling; the domain has no
/// randomness. An `externalId` wins over an e-mail: when one is given the e-mail is never used to find a buyer.
/// An address verified by two or more buyers names none of them (issue 12 §1): no buyer may take an address away
/// from another.
public enum BuyerCreation {
    /// The most verified buyers the shell reads (and an `EmailAmbiguous` lists); two already make an address
    /// ambiguous.
    public static let ambiguityListLimit = 10

    /// What the organization's log knows of the command's identifiers.
    public struct State: Sendable, Equatable {
        /// The buyer with the command's `externalId`; nil when none (or no `externalId` was given).
        public var byExternalId: BuyerGuid?
        /// The buyers whose verified e-mail is the command's `email`, in the order they attached it (at most
        /// `ambiguityListLimit`); empty when none (or no `email` was given).
        public var verifiedByEmail: [BuyerGuid]

        public init(byExternalId: BuyerGuid?, verifiedByEmail: [BuyerGuid]) {
            self.byExternalId = byExternalId
            self.verifiedByEmail = verifiedByEmail
        }
    }

    /// The request, validated.
    public struct Command: Sendable, Equatable {
        public var externalId: ExternalID?
        public var email: EmailAddress?
        /// A fresh random guid the shell drew; used only when a buyer is created.
        public var newGuid: BuyerGuid

        public init(externalId: ExternalID?, email: EmailAddress?, newGuid: BuyerGuid) {
            self.externalId = externalId
            self.email = email
            self.newGuid = newGuid
        }
    }

    /// The buyer to answer.
    public enum Decision: Sendable, Equatable {
        /// A buyer already known under the identifier: answer it, record nothing.
        case existing(BuyerGuid)
        /// No buyer is known: create this one.
        case create(BuyerGuid)
        /// The e-mail is verified by several buyers: create this one and record `EmailAmbiguous` naming them.
        case createBesideAmbiguousEmail(BuyerGuid, verified: [BuyerGuid])
    }

    /// Decides which buyer `command` names given `state`.
    ///
    /// Neither `externalId` nor `email` is 400 `VALIDATION_EXTERNAL_ID_OR_EMAIL_REQUIRED`. With an `externalId`, its
    /// buyer or a new one; with only an `email`, the one buyer that verified it, or a new one when none did, or a new
    /// one beside the record of the ambiguity when two or more did.
    public static func decide(_ state: State, _ command: Command) -> Result<Decision, Refusal> {
        if command.externalId != nil {
            return .success(state.byExternalId.map(Decision.existing) ?? .create(command.newGuid))
        }
        if command.email != nil {
            switch state.verifiedByEmail.count {
            case 0: return .success(.create(command.newGuid))
            case 1: return .success(.existing(state.verifiedByEmail[0]))
            default: return .success(.createBesideAmbiguousEmail(command.newGuid, verified: state.verifiedByEmail))
            }
        }
        return .failure(Refusal(kind: .invalid, code: .externalIDOrEmailRequired, field: "externalId",
                                message: "field 'externalId' or field 'email' is required"))
    }
}
