import Crypto
import Domain

/// The token in `postPaymentUrl` (`/done/<token>`): the handoff code under deterministic authenticated encryption,
/// so the page can be served from the token alone and a repeated payment request answers the same URL.
///
/// SIV construction (Rogaway–Shrimpton) with HMAC-SHA256 as the PRF, under a key derived from the master key
/// (`HMAC(HANDOFF_MASTER_KEY, "handoff/page-token/v1")`, so neither the pepper nor the code is exposed):
/// `iv = HMAC(k, "iv" ‖ 0 ‖ code)[0..<16]`, `ct = code ⊕ HMAC(k, "stream" ‖ 0 ‖ iv)[0..<8]`,
/// token = base64url(`iv ‖ ct`) — 32 characters. Opening recomputes `iv` from the decrypted code and compares in
/// constant time: any changed bit, another key, or a made-up token opens to nil. Equal codes give equal tokens
/// (that is the point); nothing else about the code leaks.
///
/// After a master-key rotation new tokens are made under the new key; tokens made under a key still listed in
/// `HANDOFF_MASTER_KEY_PREVIOUS` keep opening until that key is dropped (docs/operations.md).
public struct PageToken: Sendable {
    private let key: [UInt8]
    private let previousKeys: [[UInt8]]
    private static let ivBytes = 16

    /// A token codec under `masterKey` (32 bytes, `HANDOFF_MASTER_KEY`) that also opens tokens made under
    /// `previousMasterKeys`.
    public init(masterKey: [UInt8], previousMasterKeys: [[UInt8]] = []) {
        key = Self.derive(masterKey)
        previousKeys = previousMasterKeys.map(Self.derive)
    }

    private static func derive(_ masterKey: [UInt8]) -> [UInt8] {
        HMAC.sha256(key: masterKey, message: Array("handoff/page-token/v1".utf8))
    }

    /// The token of `code`.
    public func seal(_ code: HandoffCode) -> String {
        seal(code, key: key)
    }

    /// The code in `token`, or nil for anything `seal` did not make under the current or a previous key.
    public func open(_ token: String) -> HandoffCode? {
        for candidate in [key] + previousKeys {
            if let code = open(token, key: candidate) { return code }
        }
        return nil
    }

    private func seal(_ code: HandoffCode, key: [UInt8]) -> String {
        let plain = Array(code.text.utf8)
        let iv = Array(HMAC.sha256(key: key, message: Array("iv".utf8) + [0] + plain).prefix(Self.ivBytes))
        return Base64URL.encode(iv + xor(plain, stream(iv, key: key)))
    }

    private func open(_ token: String, key: [UInt8]) -> HandoffCode? {
        guard token.utf8.count <= 64, let bytes = Base64URL.decode(token), bytes.count > Self.ivBytes,
              bytes.count <= Self.ivBytes + 32 else { return nil }
        let iv = Array(bytes.prefix(Self.ivBytes))
        let plain = xor(Array(bytes.dropFirst(Self.ivBytes)), stream(iv, key: key))
        let expected = Array(HMAC.sha256(key: key, message: Array("iv".utf8) + [0] + plain).prefix(Self.ivBytes))
        guard ConstantTime.equals(iv, expected), let text = String(validating: plain, as: UTF8.self) else {
            return nil
        }
        return HandoffCode.parse(text)
    }

    private func stream(_ iv: [UInt8], key: [UInt8]) -> [UInt8] {
        HMAC.sha256(key: key, message: Array("stream".utf8) + [0] + iv)
    }

    private func xor(_ bytes: [UInt8], _ pad: [UInt8]) -> [UInt8] {
        zip(bytes, pad).map { $0 ^ $1 }
    }
}
