/// The result of checking a pass: its claims, or why it is not usable (all reasons answer the same 404).
public enum PassVerification: Hashable, Sendable {
    /// Signed by a known key, unchanged, and not expired at the given instant.
    case valid(PassClaims)
    /// Not usable, and why (for logs and tests; clients never learn the reason).
    case invalid(PassInvalidReason)
}

/// Why a pass is not usable.
public enum PassInvalidReason: Hashable, Sendable {
    /// Not of the form `v2.<payload>.<keyId>.<signature>` (or `v1.…`), or a payload that is not of its version.
    case malformed
    /// Names a key id that is neither the current nor a previous key.
    case unknownKey
    /// The signature does not match: the pass was altered or forged.
    case tampered
    /// Authentic, but `now` is at or after its expiry.
    case expired
}
