import Crypto
import Domain
import Foundation

/// A public key of the deployment's audit key (issue 16 §1): what `GET /s2s/v1/audit/keys` and `handoff audit keys`
/// list. Every key that ever signed a head stays listed (table `audit_keys`, append-only), so heads signed before a
/// rotation keep verifying.
public struct AuditKey: Sendable, Equatable {
    /// `id(of:)` of `publicKey`.
    public var id: String
    public var publicKey: Ed25519PublicKey
    /// When a checkpoint first used it (canonical UTC).
    public var firstUsedAt: String

    public init(publicKey: Ed25519PublicKey, firstUsedAt: String) {
        self.id = Self.id(of: publicKey)
        self.publicKey = publicKey
        self.firstUsedAt = firstUsedAt
    }

    /// A key's id: the first 16 lowercase hex digits of SHA-256 of its 32 raw bytes, so an auditor can recompute it
    /// and no two keys share one by accident.
    public static func id(of publicKey: Ed25519PublicKey) -> String {
        String(Hex.encode(SHA256.hash(publicKey.raw)).prefix(16))
    }

    /// Whether `text` has the form of a key id (16 lowercase hex digits).
    public static func isWellFormedId(_ text: String) -> Bool {
        text.utf8.count == 16 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// `{"algorithm":"ed25519","first_used_at","key_id","public_key" (64 hex),"public_key_pem"}`.
    public var json: EventJSON {
        .object([
            "algorithm": .string("ed25519"), "first_used_at": .string(firstUsedAt), "key_id": .string(id),
            "public_key": .string(Hex.encode(publicKey.raw)), "public_key_pem": .string(publicKey.pem),
        ])
    }

    /// `{"keys":[…]}`: the document of `GET /s2s/v1/audit/keys` and `handoff audit keys`.
    public static func document(_ keys: [AuditKey]) -> EventJSON {
        .object(["keys": .array(keys.map(\.json))])
    }

    /// Why a keys document was not taken: what is wrong with it.
    public struct DocumentError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Reads a keys document (`document(_:)`'s shape): from each key its `public_key` (64 hex digits), checking that
    /// its `key_id` is that key's id; the other members are not needed.
    public static func keys(fromDocument json: EventJSON) throws(DocumentError) -> [AuditKey] {
        guard case .array(let entries)? = json["keys"] else {
            throw DocumentError(description: "the document has no \"keys\" array")
        }
        var keys: [AuditKey] = []
        for (index, entry) in entries.enumerated() {
            guard let text = entry["public_key"]?.stringValue, let raw = Hex.decode(text),
                  let key = Ed25519PublicKey(raw: raw) else {
                throw DocumentError(description: "keys[\(index)].public_key is not 64 hex digits of an Ed25519 key")
            }
            let parsed = AuditKey(publicKey: key, firstUsedAt: entry["first_used_at"]?.stringValue ?? "")
            guard entry["key_id"]?.stringValue == parsed.id else {
                throw DocumentError(description: "keys[\(index)].key_id is not the id of its public_key")
            }
            keys.append(parsed)
        }
        return keys
    }

    /// What checking a head's signature against `keys` found.
    public enum Verdict: Sendable, Equatable {
        case valid
        /// No key in the list has the head's `key_id`.
        case unknownKey
        /// The key is known, but the signature is not its signature of the head.
        case badSignature
    }

    /// Checks `head`'s signature with the key of its `key_id` among `keys`.
    public static func verify(_ head: ChainHead, keys: [AuditKey]) -> Verdict {
        guard let key = keys.first(where: { $0.id == head.keyId }) else { return .unknownKey }
        return key.publicKey.isValidSignature(head.signature, for: head.signedBytes) ? .valid : .badSignature
    }
}
