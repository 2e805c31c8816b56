@testable import Domain

/// `codes`: the bytes as a handoff code or install token (`?code=` of `GET /public/handoff/resolve`,
/// `HandoffCode.parse`, `InstallToken.parse`), and as the random bytes a code is minted from.
///
/// Properties: a code is accepted exactly when it is 8 characters of the code alphabet, by both parsers alike, and
/// kept as given; a lowercase spelling of a code with letters is refused; a code minted from 5 bytes parses to
/// itself and spells those bytes (decoding its characters gives them back), and its return link is
/// `<scheme>://handoff?code=<code>`.
enum CodesFuzz {
    static let target = FuzzTarget(name: "codes", maxLength: 64, run: run)

    static let scheme: ReturnScheme = {
        guard case .success(let scheme) = ReturnScheme.parse("myapp") else { fatalError("myapp is a return scheme") }
        return scheme
    }()

    static func run(_ bytes: [UInt8]) {
        let candidate = text(bytes)
        let code = HandoffCode.parse(candidate)
        let token = InstallToken.parse(candidate)
        let wellFormed = candidate.utf8.count == 8 && candidate.utf8.allSatisfy(CodeAlphabet.symbols.contains)
        check((code != nil) == wellFormed && (token != nil) == wellFormed, "'\(candidate)': code \(code as Any)")
        if let code {
            check(code.text == candidate && token?.text == candidate, "'\(candidate)' is kept as \(code.text)")
            if candidate.contains(where: \.isLetter) {
                check(HandoffCode.parse(candidate.lowercased()) == nil, "lowercase '\(candidate)' is accepted")
            }
        }
        let random = material(bytes, count: HandoffCode.randomByteCount)
        let minted = HandoffCode(randomBytes: random)
        check(HandoffCode.parse(minted.text) == minted, "minted '\(minted.text)' does not parse")
        check(InstallToken(randomBytes: random).text == minted.text, "tokens and codes spell bytes differently")
        check(spelledBytes(minted.text) == random, "'\(minted.text)' does not spell \(random)")
        check(HandoffLinks.returnLink(scheme: scheme, code: minted) == "myapp://handoff?code=\(minted.text)",
              "return link of \(minted.text)")
    }

    /// The 5 bytes whose 40 bits the 8 characters spell, most significant first.
    private static func spelledBytes(_ text: String) -> [UInt8] {
        let value = text.utf8.reduce(UInt64(0)) { value, character in
            value << 5 | UInt64(CodeAlphabet.symbols.firstIndex(of: character) ?? 0)
        }
        return (0..<5).map { UInt8(truncatingIfNeeded: value >> UInt64(32 - 8 * $0)) }
    }
}
