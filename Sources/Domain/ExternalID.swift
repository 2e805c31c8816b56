/// The tenant's own id for a buyer (`externalId` of `POST /s2s/v1/users`): one guid per (organization, externalId).
///
/// 1–256 printable characters (no control characters, no leading or trailing whitespace), compared exactly and
/// stored as given: the tenant's id is theirs, so no case folding or trimming happens.
public struct ExternalID: Hashable, Sendable, CustomStringConvertible {
    /// The most characters an external id may have.
    public static let maxLength = 256

    /// The id as the tenant sent it.
    public let text: String

    private init(text: String) { self.text = text }

    public var description: String { text }

    /// Parses an external id; refuses an empty, too long, padded or non-printable one with
    /// `VALIDATION_EXTERNAL_ID_FORMAT` naming `field`.
    public static func parse(_ text: String, field: String = "externalId") -> Result<ExternalID, FieldRefusal> {
        let scalars = text.unicodeScalars
        guard (1...maxLength).contains(text.count),
              scalars.allSatisfy({ !$0.properties.isWhitespace || $0 == " " }),
              scalars.allSatisfy({ $0.properties.generalCategory != .control
                  && $0.properties.generalCategory != .format && $0.properties.generalCategory != .unassigned
                  && $0.properties.generalCategory != .lineSeparator
                  && $0.properties.generalCategory != .paragraphSeparator }),
              scalars.first != " ", scalars.last != " "
        else {
            return .failure(FieldRefusal(
                field: field, code: .externalIDFormat,
                rule: "be 1–\(maxLength) printable characters without leading or trailing spaces"))
        }
        return .success(ExternalID(text: text))
    }
}
