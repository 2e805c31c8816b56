import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// What every buyer-identity command and read shares: the log, the personal-data keys, the lookup pepper, the
/// post-payment page tokens and the code minter. Built once from the identity secrets.
public struct IdentityContext: Sendable {
    /// The event log the commands append to (with the product projections).
    public let log: EventLog
    /// `HANDOFF_MASTER_KEY`, `HANDOFF_LOOKUP_PEPPER`, `HANDOFF_PASS_KEYS`.
    public let secrets: IdentitySecrets
    /// Seals and opens personal data per buyer (or per address).
    public let subjectKeys: SubjectKeys
    /// The post-payment page's tokens.
    public let pageTokens: PageToken
    /// Mints handoff codes and install tokens inside a command's transaction.
    public let codes: CodeMinter

    /// A context over `log` with `secrets`.
    public init(log: EventLog, secrets: IdentitySecrets) {
        self.log = log
        self.secrets = secrets
        self.subjectKeys = SubjectKeys(masterKeys: secrets.masterKeys)
        self.pageTokens = PageToken(masterKey: secrets.masterKey, previousMasterKeys: secrets.previousMasterKeys)
        self.codes = CodeMinter(secrets: secrets)
    }

    /// The lookup hash of an e-mail address (`LookupHash.email`, keyed with the pepper).
    public func emailHash(_ email: EmailAddress) -> String {
        LookupHash.email(email.text, pepper: secrets.lookupPepper)
    }

    /// The keyed hash of a client address, for per-client budgets that must not keep the address: its
    /// `LookupHash.ipAddress`, or for a text that is not an IP address the keyed hash of the text itself.
    public func clientHash(_ clientIP: String) -> String {
        LookupHash.ipAddress(clientIP, pepper: secrets.lookupPepper)
            ?? LookupHash.of(Array(clientIP.utf8), kind: "ip-text", pepper: secrets.lookupPepper)
    }

    /// `text` sealed for buyer `guid` of `org`; refuses (409) when the buyer's personal data was erased.
    func seal(_ text: String, field: PersonalDataField, org: OrgID, guid: BuyerGuid, on connection: Connection)
        throws -> SealedValue
    {
        guard let sealed = try subjectKeys.seal(text, field: field, org: org.uuid, subject: guid.description,
                                                on: connection) else { throw Refusal.erasedBuyer }
        return sealed
    }
}

extension Refusal {
    /// 409 `PAYMENT_CONFLICT`: the buyer's personal-data key was destroyed, so nothing can be sealed for them.
    public static let erasedBuyer = Refusal(kind: .conflict, code: .paymentConflict, field: "guid",
                                            message: "field 'guid' names a buyer whose personal data was erased")
}
