/// A buyer's e-mail address as a tenant sends it: plausible, not proven (anyone can type any address).
///
/// At most 254 UTF-8 bytes (RFC 5321's path limit), exactly one `@` with a non-empty local part of at most 64
/// bytes and a domain with a dot, no whitespace or control characters (so no CR/LF header injection later).
/// Kept as given; lookups normalize it (`LookupHash.email`). Prints as `<e-mail>`: it is personal data.
public struct EmailAddress: Hashable, Sendable, CustomStringConvertible {
    /// The most UTF-8 bytes an address may have.
    public static let maxLength = 254

    /// The address as the tenant sent it.
    public let text: String

    private init(text: String) { self.text = text }

    public var description: String { "<e-mail>" }

    /// Parses an address; refuses an implausible one with `VALIDATION_EMAIL_FORMAT` naming `field`.
    public static func parse(_ text: String, field: String = "email") -> Result<EmailAddress, FieldRefusal> {
        let refusal = FieldRefusal(field: field, code: .emailFormat,
                                   rule: "be an e-mail address of at most \(maxLength) characters")
        guard (3...maxLength).contains(text.utf8.count),
              text.unicodeScalars.allSatisfy({ !$0.properties.isWhitespace
                  && $0.properties.generalCategory != .control && $0.properties.generalCategory != .format })
        else { return .failure(refusal) }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...64).contains(parts[0].utf8.count) else { return .failure(refusal) }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }) else { return .failure(refusal) }
        return .success(EmailAddress(text: text))
    }
}
