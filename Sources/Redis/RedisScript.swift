/// A Lua script run with `EVALSHA`, named by the SHA-1 of its source as Redis names it.
///
/// Make one per script at start-up (a `static let`) and pass it to `evaluate`; the server loads it on first use
/// and again after `SCRIPT FLUSH` or a restart.
public struct RedisScript: Sendable {
    /// The Lua source, sent with `SCRIPT LOAD` when the server does not know the script.
    public let source: String
    /// The 40 lowercase hex digits of the SHA-1 of `source`'s UTF-8 bytes.
    public let sha1: String

    /// Wraps `source` and computes its SHA-1 (no I/O).
    public init(source: String) {
        self.source = source
        self.sha1 = SHA1.hexDigest(Array(source.utf8))
    }
}
