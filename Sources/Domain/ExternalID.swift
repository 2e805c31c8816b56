/// The tenant's own id for a buyer (`externalId` of `POST /s2s/v1/users`): one guid per (organization, externalId).
///
/// 1–256 Unicode scalars (code points, what JSON Schema's `maxLength` counts), none of them a control or format
/// character or white space other than the space (`refused`), and no leading or trailing space. Compared exactly and
/// stored as given: the tenant's id is theirs, so no case folding or trimming happens.
public struct ExternalID: Hashable, Sendable, CustomStringConvertible {
    /// The most scalars an external id may have.
    public static let maxLength = 256
    /// Scalars refused anywhere in an external id.
    public static let refused = ScalarSet.controls + .formats + .whitespaceExceptSpace
    /// A whole external id (lengths apart): a first and last scalar that are neither refused nor a space.
    public static let pattern = "^[^\(refused.classBody)\(ScalarSet.space.classBody)]"
        + "(?:[^\(refused.classBody)]*[^\(refused.classBody)\(ScalarSet.space.classBody)])?$"

    /// The id as the tenant sent it.
    public let text: String

    private init(text: String) { self.text = text }

    public var description: String { text }

    /// Parses an external id; refuses an empty, too long, padded or non-printable one with
    /// `VALIDATION_EXTERNAL_ID_FORMAT` naming `field`.
    public static func parse(_ text: String, field: String = "externalId") -> Result<ExternalID, FieldRefusal> {
        let scalars = text.unicodeScalars
        guard (1...maxLength).contains(scalars.count), !scalars.contains(where: refused.contains),
              scalars.first != " ", scalars.last != " "
        else {
            return .failure(FieldRefusal(
                field: field, code: .externalIDFormat,
                rule: "be 1–\(maxLength) printable characters without leading or trailing spaces"))
        }
        return .success(ExternalID(text: text))
    }
}
