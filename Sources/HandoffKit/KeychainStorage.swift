#if canImport(Security)
import Foundation
import Security

/// `PersistentStorage` in the Keychain (generic passwords of one service), for the referral tokens of
/// `KeychainTokenStore`. Items are readable after the first unlock, on this device only (not in backups).
public struct KeychainStorage: PersistentStorage {
    /// The `kSecAttrService` of every item.
    public let service: String

    /// A storage of Keychain items under `service`.
    public init(service: String = "HandoffKit") {
        self.service = service
    }

    public func data(forKey key: String) -> Data? {
        var query = base(key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var item: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess else { return nil }
        return item as? Data
    }

    public func setData(_ data: Data?, forKey key: String) {
        SecItemDelete(base(key) as CFDictionary)
        guard let data else { return }
        var item = base(key)
        item[kSecValueData as String] = data
        item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        SecItemAdd(item as CFDictionary, nil)
    }

    private func base(_ key: String) -> [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
         kSecAttrAccount as String: key]
    }
}
#endif
