import Crypto
import Foundation

/// The Meta Install Referrer: what Meta puts in a Play referrer's `utm_content` for an install from a Facebook or
/// Instagram ad, `{"app":…,"t":…,"source":{"data":"<hex>","nonce":"<hex>"}}`, decrypted with the app's "Install
/// Referrer Decryption Key" (64 hex digits, from Meta's app dashboard).
///
/// As Meta documents it: AES-256-GCM, the key and the 12-byte `nonce` hex-decoded, `data` the hex of the ciphertext
/// followed by its 16-byte tag, no associated data; the plaintext is JSON naming the campaign (`ad_id`,
/// `campaign_id`, `campaign_group_name`, `is_instagram`, `publisher_platform`, …).
///
/// `POST /v1/m/install` decrypts it with the app's sealed, write-only secret `metaInstallReferrerKey`.
enum MetaInstallReferrer {
    /// What a `utm_content` holds.
    enum Outcome: Equatable {
        /// Not Meta's shape (an ordinary `utm_content`).
        case notMeta
        /// Meta's shape, but it does not decrypt under the key (another app's key, altered, truncated).
        case undecryptable
        /// The decrypted campaign JSON, as Meta wrote it.
        case decrypted(String)
    }

    /// Whether `utmContent` has Meta's shape (before any key is read).
    static func isMeta(_ utmContent: String) -> Bool {
        decrypt(utmContent: utmContent, keyHex: "") != .notMeta
    }

    /// The campaign of `utmContent` decrypted with `keyHex`, as compact JSON with sorted keys; nil when it is not
    /// Meta's shape, does not decrypt or is not a JSON object.
    static func campaign(utmContent: String, keyHex: String) -> String? {
        guard case .decrypted(let text) = decrypt(utmContent: utmContent, keyHex: keyHex),
              let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let compact = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        else { return nil }
        return String(decoding: compact, as: UTF8.self)
    }

    /// Reads `utmContent` and decrypts it with `keyHex`.
    static func decrypt(utmContent: String, keyHex: String) -> Outcome {
        guard let object = try? JSONSerialization.jsonObject(with: Data(utmContent.utf8)) as? [String: Any],
              let source = object["source"] as? [String: Any], let dataHex = source["data"] as? String,
              let nonceHex = source["nonce"] as? String
        else { return .notMeta }
        guard let key = Hex.decode(keyHex), key.count == AESGCM.keyByteCount,
              let nonce = Hex.decode(nonceHex), nonce.count == AESGCM.nonceByteCount,
              let data = Hex.decode(dataHex), data.count >= AESGCM.tagByteCount,
              let plaintext = AESGCM.open(nonce + data, key: key, associatedData: []),
              let text = String(bytes: plaintext, encoding: .utf8)
        else { return .undecryptable }
        return .decrypted(text)
    }
}
