/// An Android app's package name (`applicationId`), e.g. `com.example.app`; the Play link's `id`.
///
/// Android's rules: at least two segments separated by `.`, each starting with a letter and made of letters,
/// digits and `_`. At most 255 characters. Case is kept (package names are case-sensitive).
public struct AndroidPackage: Hashable, Sendable, CustomStringConvertible {
    /// The most characters a package name may have here.
    public static let maxLength = 255

    /// The characters of a segment after its first letter.
    public static let segmentCharacters = ASCIISet("A-Za-z0-9_")
    /// A whole package name (the length apart): two or more segments.
    public static let pattern = "^[A-Za-z][\(segmentCharacters.classBody)]*"
        + "(?:\\.[A-Za-z][\(segmentCharacters.classBody)]*)+$"

    /// The package name as given.
    public let text: String

    private init(text: String) { self.text = text }

    public var description: String { text }

    /// Parses a package name; refuses with `VALIDATION_ANDROID_PACKAGE_FORMAT` naming `field`.
    public static func parse(
        _ text: String, field: String = "androidPackage"
    ) -> Result<AndroidPackage, FieldRefusal> {
        let segments = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        let wellFormed = text.utf8.count <= maxLength && segments.count >= 2 && segments.allSatisfy { segment in
            guard let first = segment.first, ASCII.isLetter(first) else { return false }
            return segment.allSatisfy(segmentCharacters.contains)
        }
        guard wellFormed else {
            return .failure(FieldRefusal(
                field: field, code: .androidPackageFormat,
                rule: "be an Android package name: two or more '.'-separated segments, each a letter followed by "
                    + "letters, digits or '_'"))
        }
        return .success(AndroidPackage(text: text))
    }
}
