/// What verifies a buyer's e-mail address in a project (issue 12 §1), so that e-mail-only lookups and recovery
/// mails can trust it.
///
/// - `payment` (the default, the seed's rule): redeeming the handoff code of a payment verifies the address given
///   with that payment, and so does redeeming a code from a recovery mail.
/// - `mailbox`: only redeeming a code that was mailed to the address (a recovery mail) verifies it; whoever records
///   a payment with someone else's address never gets it verified.
public enum EmailVerification: String, Codable, Hashable, Sendable, CaseIterable {
    case payment
    case mailbox

    /// Parses `payment` or `mailbox`; refuses anything else with `VALIDATION_EMAIL_VERIFICATION_FORMAT` naming
    /// `field`.
    public static func parse(_ text: String, field: String = "emailVerification")
        -> Result<EmailVerification, FieldRefusal>
    {
        guard let value = EmailVerification(rawValue: text) else {
            return .failure(FieldRefusal(field: field, code: .emailVerificationFormat, rule: "be payment or mailbox"))
        }
        return .success(value)
    }

    /// Whether redeeming a handoff code from `source` verifies the e-mail address the code carries.
    public func verifies(codeFrom source: HandoffRedemption.Source) -> Bool {
        switch self {
        case .payment: true
        case .mailbox: source == .recovery
        }
    }
}
