/// The URL scheme that opens the tenant's app (`<scheme>://handoff?code=…`), e.g. `myapp`.
///
/// An RFC 3986 §3.1 scheme (a letter, then letters, digits, `+`, `-`, `.`), at most 64 characters, stored
/// lowercase (schemes are case-insensitive). Schemes that open a browser, a script or another system handler
/// instead of an app (`http`, `https`, `javascript`, `data`, `file`, `intent`, …) are refused: the return link is
/// put into a button on the post-payment page.
public struct ReturnScheme: Hashable, Sendable, CustomStringConvertible {
    /// The most characters a return scheme may have.
    public static let maxLength = 64
    /// Schemes that are not an app's own.
    public static let refusedSchemes: Set<String> = [
        "about", "blob", "data", "file", "ftp", "http", "https", "intent", "javascript", "mailto", "sms", "tel",
        "vbscript", "ws", "wss",
    ]

    /// The characters after the first letter.
    public static let characters = ASCIISet("A-Za-z0-9+.-")
    /// A well-formed scheme: `^[A-Za-z][A-Za-z0-9+.-]{0,63}$`; `refusedPattern` names the refused ones of that shape.
    public static let pattern = "^[A-Za-z][\(characters.classBody)]{0,\(maxLength - 1)}$"
    /// The refused schemes in any case, as one regular expression.
    public static let refusedPattern = "^(?:" + refusedSchemes.sorted().map { scheme in
        scheme.map { $0.isLetter ? "[\($0.uppercased())\($0)]" : String($0) }.joined()
    }.joined(separator: "|") + ")$"

    /// The scheme in lowercase, without `://`.
    public let text: String

    private init(text: String) { self.text = text }

    public var description: String { text }

    /// Parses a scheme (without `://`); refuses with `VALIDATION_RETURN_SCHEME_FORMAT` naming `field`.
    public static func parse(_ text: String, field: String = "returnScheme") -> Result<ReturnScheme, FieldRefusal> {
        let bytes = Array(text.utf8)
        let wellFormed = (1...maxLength).contains(bytes.count) && ASCII.isLetter(bytes[0])
            && bytes.allSatisfy(characters.contains)
        guard wellFormed else {
            return .failure(FieldRefusal(
                field: field, code: .returnSchemeFormat,
                rule: "be a URL scheme without '://': a letter, then letters, digits, '+', '-' or '.' "
                    + "(at most \(maxLength))"))
        }
        let lowercase = text.lowercased()
        guard !refusedSchemes.contains(lowercase) else {
            return .failure(FieldRefusal(field: field, code: .returnSchemeFormat,
                                         rule: "be the app's own scheme, not '\(lowercase)'"))
        }
        return .success(ReturnScheme(text: lowercase))
    }
}
