/// An iOS app's bundle id (`CFBundleIdentifier`), e.g. `com.example.App`.
///
/// Apple's character set: letters, digits, `-` and `.`; here also non-empty `.`-separated segments (no leading,
/// trailing or doubled dots) and at most 255 characters. Case is kept.
public struct IOSBundleID: Hashable, Sendable, CustomStringConvertible {
    /// The most characters a bundle id may have here.
    public static let maxLength = 255

    /// The characters of a segment.
    public static let segmentCharacters = ASCIISet("A-Za-z0-9-")
    /// A whole bundle id (the length apart): `.`-separated non-empty segments.
    public static let pattern = "^[\(segmentCharacters.classBody)]+(?:\\.[\(segmentCharacters.classBody)]+)*$"

    /// The bundle id as given.
    public let text: String

    private init(text: String) { self.text = text }

    public var description: String { text }

    /// Parses a bundle id; refuses with `VALIDATION_BUNDLE_ID_FORMAT` naming `field`.
    public static func parse(_ text: String, field: String = "iosBundleId") -> Result<IOSBundleID, FieldRefusal> {
        let segments = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        let wellFormed = text.utf8.count <= maxLength && segments.allSatisfy { segment in
            !segment.isEmpty && segment.allSatisfy(segmentCharacters.contains)
        }
        guard wellFormed else {
            return .failure(FieldRefusal(
                field: field, code: .bundleIDFormat,
                rule: "be an iOS bundle id: '.'-separated segments of letters, digits or '-'"))
        }
        return .success(IOSBundleID(text: text))
    }
}
