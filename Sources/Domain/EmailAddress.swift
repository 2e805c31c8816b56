/// A buyer's e-mail address as a tenant sends it: plausible, not proven (anyone can type any address).
///
/// At most 254 Unicode scalars (RFC 5321's path limit, counted as JSON Schema counts), exactly one `@` with a local
/// part of 1–64 scalars and a domain of two or more non-empty `.`-separated labels, no white space, control or format
/// characters (so no CR/LF header injection later). Kept as given; lookups normalize it (`LookupHash.email`).
/// Prints as `<e-mail>`: it is personal data.
public struct EmailAddress: Hashable, Sendable, CustomStringConvertible {
    /// The most scalars an address may have.
    public static let maxLength = 254
    /// The most scalars of the local part (before the `@`).
    public static let maxLocalLength = 64
    /// Scalars refused anywhere in an address.
    public static let refused = ScalarSet.controls + .formats + .whitespaceExceptSpace + .space
    /// A whole address (the total length apart): `local@label.label…`.
    public static let pattern = "^[^@\(refused.classBody)]{1,\(maxLocalLength)}@[^@.\(refused.classBody)]+"
        + "(?:\\.[^@.\(refused.classBody)]+)+$"

    /// The address as the tenant sent it.
    public let text: String

    private init(text: String) { self.text = text }

    public var description: String { "<e-mail>" }

    /// Parses an address; refuses an implausible one with `VALIDATION_EMAIL_FORMAT` naming `field`.
    public static func parse(_ text: String, field: String = "email") -> Result<EmailAddress, FieldRefusal> {
        let refusal = FieldRefusal(field: field, code: .emailFormat,
                                   rule: "be an e-mail address of at most \(maxLength) characters")
        let scalars = text.unicodeScalars
        guard scalars.count <= maxLength, !scalars.contains(where: refused.contains) else { return .failure(refusal) }
        let parts = scalars.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...maxLocalLength).contains(parts[0].count) else { return .failure(refusal) }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }) else { return .failure(refusal) }
        return .success(EmailAddress(text: text))
    }
}
