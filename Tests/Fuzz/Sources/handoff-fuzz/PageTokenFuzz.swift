import Commands
import Crypto
import Domain

/// `page-token`: the bytes as the `<token>` of `GET /done/<token>` and of the fingerprint body (`PageToken.open`),
/// and as material for tokens sealed and then changed.
///
/// Properties: a token that opens is exactly the token its code seals to (one token per code); `Base64URL.decode`
/// accepts only the canonical spelling of its bytes (with or without `=` padding); a code sealed from the input's
/// bytes opens to itself under the same key, to nothing under another key, and to nothing once any one character
/// is changed (position and replacement from the input); a token is 32 characters of base64url.
enum PageTokenFuzz {
    static let target = FuzzTarget(name: "page-token", maxLength: 256, run: run)

    /// The codec under a fixed master key (32 bytes of 0x42), which the seed tokens were sealed with.
    static let codec = PageToken(masterKey: [UInt8](repeating: 0x42, count: 32))
    static let otherCodec = PageToken(masterKey: [UInt8](repeating: 0x43, count: 32))

    static func run(_ bytes: [UInt8]) {
        let candidate = text(bytes)
        if let code = codec.open(candidate) {
            check(codec.seal(code) == candidate, "'\(candidate)' opens to \(code.text), which seals otherwise")
        }
        if let decoded = Base64URL.decode(candidate) {
            let unpadded = candidate.hasSuffix("=") ? String(candidate.prefix { $0 != "=" }) : candidate
            check(Base64URL.encode(decoded) == unpadded, "'\(candidate)' decodes but is not canonical")
        }
        let code = HandoffCode(randomBytes: material(bytes, count: HandoffCode.randomByteCount))
        let token = codec.seal(code)
        let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        check(token.utf8.count == 32 && token.allSatisfy(alphabet.contains), "token '\(token)'")
        check(codec.open(token) == code, "'\(token)' does not open to \(code.text)")
        check(otherCodec.open(token) == nil, "'\(token)' opens under another key")
        var characters = Array(token.utf8)
        let position = Int(material(bytes, count: 1, offset: 5)[0]) % characters.count
        let replacement = Array(alphabet.utf8)[Int(material(bytes, count: 1, offset: 6)[0]) % 64]
        guard characters[position] != replacement else { return }
        characters[position] = replacement
        let changed = String(decoding: characters, as: UTF8.self)
        check(codec.open(changed) == nil, "'\(changed)' (one character of a token changed) opens")
    }
}
