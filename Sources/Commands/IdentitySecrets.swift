import Crypto
import Domain
import EventStore

/// The secrets the buyer-identity endpoints need: the personal-data master key and lookup pepper, and the pass keys.
///
/// Built once at start from `HANDOFF_MASTER_KEY`, `HANDOFF_LOOKUP_PEPPER` and `HANDOFF_PASS_KEYS`. Prints as
/// `<redacted>`.
public struct IdentitySecrets: Sendable, CustomStringConvertible {
    /// Wraps each buyer's personal-data key (32 bytes).
    public let masterKey: [UInt8]
    /// Older master keys that still unwrap (`HANDOFF_MASTER_KEY_PREVIOUS`) until a rotation re-wrapped every row.
    public let previousMasterKeys: [[UInt8]]
    /// HMAC key of the e-mail lookup hashes (≥ 32 bytes).
    public let lookupPepper: [UInt8]
    /// Signs and verifies passes (HMAC-SHA256 per key id).
    public let passKeys: PassKeys

    /// `passKeys` lists (id, key bytes) with the current key first; ids must satisfy `PassKeys.isKeyID`.
    /// `previousMasterKeys` only unwrap (docs/operations.md, "Rotating the master key").
    public init(masterKey: [UInt8], lookupPepper: [UInt8], passKeys: [(id: String, key: [UInt8])],
                previousMasterKeys: [[UInt8]] = []) {
        precondition(!passKeys.isEmpty, "IdentitySecrets: at least one pass key is required")
        self.masterKey = masterKey
        self.previousMasterKeys = previousMasterKeys
        self.lookupPepper = lookupPepper
        self.passKeys = Self.hmacKeys(passKeys)
    }

    public var description: String { "<redacted>" }

    /// The master key ring: `masterKey` wraps, it and `previousMasterKeys` unwrap.
    public var masterKeys: MasterKeyRing {
        MasterKeyRing(current: masterKey, previous: previousMasterKeys)
    }

    /// `PassKeys` whose MAC is HMAC-SHA256 under the key with that id; the first key signs.
    public static func hmacKeys(_ keys: [(id: String, key: [UInt8])]) -> PassKeys {
        var table: [String: [UInt8]] = [:]
        for entry in keys { table[entry.id] = entry.key }
        let frozen = table
        return PassKeys(currentKeyID: keys[0].id, previousKeyIDs: keys.dropFirst().map(\.id)) { id, message in
            HMAC.sha256(key: frozen[id] ?? [], message: message)
        }
    }
}
