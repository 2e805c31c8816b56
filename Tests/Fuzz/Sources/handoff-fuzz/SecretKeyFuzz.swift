@testable import Domain

/// `secret-key`: the bytes as the key in `Authorization: Bearer <key>` (`SecretKey.parse`) and as the prefix given
/// to `key revoke --prefix` (`SecretKey.parseVisiblePrefix`).
///
/// Properties: an accepted key is kept exactly (67 characters, `sk_live_`, lowercase base32) and its description
/// never shows it whole; a key made from the input's bytes parses back to itself, and changing any one of its
/// characters (position and replacement from the input) is always refused; a visible prefix of an accepted key is
/// accepted as a prefix.
enum SecretKeyFuzz {
    static let target = FuzzTarget(name: "secret-key", maxLength: 256, run: run)

    static func run(_ bytes: [UInt8]) {
        let candidate = text(bytes)
        if case .success(let key) = SecretKey.parse(candidate) {
            check(key.text == candidate && key.text.utf8.count == SecretKey.length, "accepted key '\(key.text)'")
            check(!key.description.contains(key.text), "a key's description shows the whole key")
            check((try? SecretKey.parseVisiblePrefix(key.visiblePrefix).get()) == key.visiblePrefix,
                  "the visible prefix of an accepted key is refused")
        }
        if case .success(let prefix) = SecretKey.parseVisiblePrefix(candidate) {
            check(prefix == candidate && prefix.hasPrefix(SecretKey.prefix), "accepted prefix '\(prefix)'")
        }
        let made = SecretKey(randomBytes: material(bytes, count: SecretKey.randomByteCount))
        check((try? SecretKey.parse(made.text).get()) == made, "a minted key does not parse: \(made.text)")
        checkOneCharacterChange(made, bytes)
    }

    /// Every single-character change of a key is caught (wrong prefix, bad character, or CRC-32 mismatch).
    private static func checkOneCharacterChange(_ key: SecretKey, _ bytes: [UInt8]) {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567_ABZ09".utf8)
        var characters = Array(key.text.utf8)
        let position = Int(material(bytes, count: 1, offset: SecretKey.randomByteCount)[0]) % characters.count
        let replacement = alphabet[Int(material(bytes, count: 1, offset: SecretKey.randomByteCount + 1)[0])
            % alphabet.count]
        guard characters[position] != replacement else { return }
        characters[position] = replacement
        let changed = String(decoding: characters, as: UTF8.self)
        check((try? SecretKey.parse(changed).get()) == nil, "'\(changed)' (one character changed) is accepted")
    }
}
