import Crypto

/// One subject's (one buyer's) 32-byte data key, unwrapped: it seals and opens that subject's personal data.
///
/// Lives only in memory; what is stored is the key wrapped by the master key (`SubjectKeys`). It never prints.
public struct SubjectKey: Sendable, CustomStringConvertible {
    /// The raw key; 32 bytes.
    let bytes: [UInt8]

    /// Wraps 32 key bytes; nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == AESGCM.keyByteCount else { return nil }
        self.bytes = bytes
    }

    /// A new random key.
    static func generate() -> SubjectKey {
        SubjectKey(bytes: SecureRandom.bytes(AESGCM.keyByteCount))!
    }

    /// Never the key bytes.
    public var description: String { "SubjectKey(redacted)" }
}
