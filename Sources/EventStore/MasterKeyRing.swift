import Crypto

/// The master keys a process knows: the current one wraps new subject keys, the previous ones only unwrap.
///
/// Every wrapped key row names the master key that wrapped it (`subject_keys.master_key_id`), so a read picks its
/// key directly; rows from before migration 0025 name none and are tried under every known key, the current first.
/// `handoff keys rotate master` re-wraps every row under the current key; once no row names a previous key, the
/// previous keys can be dropped (docs/operations.md).
public struct MasterKeyRing: Sendable {
    /// One master key and its public id.
    public struct Key: Sendable {
        /// `MasterKeyRing.keyID(of:)` of `bytes`: 16 lowercase hex digits, safe to log and to store.
        public let id: String
        let bytes: [UInt8]
    }

    /// The key that wraps every new and every re-wrapped subject key (`HANDOFF_MASTER_KEY`).
    public let current: Key
    /// Older keys that still unwrap (`HANDOFF_MASTER_KEY_PREVIOUS`), never wrap; the current key is never among them.
    public let previous: [Key]

    /// A ring wrapping with `current` and unwrapping with it and `previous` (32 bytes each).
    ///
    /// A wrong length is a programming error: the configuration validates the variables before this runs. A
    /// previous key equal to the current one, or listed twice, is kept once.
    public init(current: [UInt8], previous: [[UInt8]] = []) {
        precondition(current.count == AESGCM.keyByteCount, "MasterKeyRing: a master key must be 32 bytes")
        precondition(previous.allSatisfy { $0.count == AESGCM.keyByteCount },
                     "MasterKeyRing: a master key must be 32 bytes")
        let currentKey = Key(id: Self.keyID(of: current), bytes: current)
        var seen: Set<String> = [currentKey.id]
        var older: [Key] = []
        for bytes in previous {
            let key = Key(id: Self.keyID(of: bytes), bytes: bytes)
            if seen.insert(key.id).inserted { older.append(key) }
        }
        self.current = currentKey
        self.previous = older
    }

    /// Every key's id, the current first.
    public var ids: [String] { [current.id] + previous.map(\.id) }

    /// The id of a master key: the first 8 bytes of `HMAC-SHA256(key, "handoff.master-key-id.v1")`, in hex.
    ///
    /// A one-way function of the key, so the id can sit in the database and in logs; two keys that differ have
    /// different ids (a 64-bit collision between a deployment's few keys is not a practical concern).
    public static func keyID(of key: [UInt8]) -> String {
        Hex.encode(Array(HMAC.sha256(key: key, message: Array("handoff.master-key-id.v1".utf8)).prefix(8)))
    }

    /// The keys to try for a row that names `id`: that key alone, none when it is unknown here, every key (current
    /// first) when the row names none.
    func candidates(for id: String?) -> [Key] {
        guard let id else { return [current] + previous }
        if id == current.id { return [current] }
        return previous.filter { $0.id == id }
    }
}
