/// An affiliate's referral code: 6–16 characters of the code alphabet (`23456789ABCDEFGHJKLMNPQRSTUVWXYZ`), unique in
/// its project. What a buyer types or a link carries is compared after trimming white space (space, tab, CR, LF) and
/// upper-casing, so ` abc234 ` names the affiliate `ABC234`; `text` is that normal form.
public struct RefCode: Hashable, Sendable, CustomStringConvertible {
    /// The fewest and most characters of a code (after trimming).
    public static let lengths = 6...16
    /// The most characters a code may have as given, white space included.
    public static let maxInputLength = 64
    /// The characters of a code in its normal form.
    public static let characters = CodeAlphabet.characters
    /// The characters a code may be given in: the alphabet in either case (`i`, `o` are not in it, `l` is).
    public static let anyCaseCharacters = ASCIISet("2-9A-HJ-NP-Za-hj-np-z")
    /// A code in its normal form, as stored and answered.
    public static let pattern = characters.pattern(lengths: lengths)
    /// A code as it may be given: surrounding white space, either case (at most `maxInputLength` characters).
    public static let inputPattern = "^[ \\t\\n\\r]*[\(anyCaseCharacters.classBody)]"
        + "{\(lengths.lowerBound),\(lengths.upperBound)}[ \\t\\n\\r]*$"

    /// The code, upper-case, without white space.
    public let text: String

    private init(text: String) { self.text = text }

    public var description: String { text }

    /// The code of 8 characters that 5 random bytes spell (`CodeAlphabet.encode`); the shell draws the bytes.
    public init(randomBytes: [UInt8]) { self.text = CodeAlphabet.encode(randomBytes: randomBytes) }

    /// Trims white space, upper-cases and checks a code; refuses with `VALIDATION_REF_CODE_FORMAT` naming `field`.
    public static func parse(_ text: String, field: String = "refCode") -> Result<RefCode, FieldRefusal> {
        let whiteSpace: [UInt8] = [0x20, 0x09, 0x0A, 0x0D]
        let bytes = Array(text.utf8)
        let start = bytes.firstIndex { !whiteSpace.contains($0) } ?? bytes.endIndex
        let end = bytes.lastIndex { !whiteSpace.contains($0) }.map { $0 + 1 } ?? start
        let code = bytes[start..<max(start, end)].map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }
        guard bytes.count <= maxInputLength, lengths.contains(code.count), code.allSatisfy(characters.contains) else {
            return .failure(FieldRefusal(
                field: field, code: .refCodeFormat,
                rule: "be \(lengths.lowerBound)–\(lengths.upperBound) characters of \(characters.classBody) "
                    + "(either case, surrounding white space ignored)"))
        }
        return .success(RefCode(text: String(decoding: code, as: UTF8.self)))
    }

    /// A code read back from storage (already in normal form); nil when it is not.
    public init?(stored text: String) {
        guard Self.lengths.contains(text.utf8.count), Self.characters.containsAll(text) else { return nil }
        self.text = text
    }
}
