import Foundation

/// Where the library keeps what must outlive the process: the buyer's guid, its own device id, referral bindings.
///
/// Keys are short ASCII names the library makes (`[A-Za-z0-9._-]`). Implementations must be safe to call from any
/// thread. Writing nil removes the key.
public protocol PersistentStorage: Sendable {
    /// The bytes stored under `key`, nil when there are none.
    func data(forKey key: String) -> Data?
    /// Stores `data` under `key` (nil removes it).
    func setData(_ data: Data?, forKey key: String)
}
