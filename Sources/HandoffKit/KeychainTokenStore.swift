import Foundation

/// Keeps one app account's referral binding (its `appAccountToken` and offer code), in the Keychain on Apple
/// platforms and in files elsewhere.
///
/// Each account has its own entry, named by `accountID`: a new account starts with none and never sees another
/// account's token. The store also notes which account holds each token on this device, and refuses to keep a token
/// another account holds (`AttributionError.tokenHeldByAnotherAccount`).
public final class KeychainTokenStore: Sendable {
    /// The app's id of the signed-in account (any text; it is only used to name the entry).
    public let accountID: String
    private let storage: any PersistentStorage

    /// The store of `accountID` in the platform's storage: Keychain (service `HandoffKit`) where there is one,
    /// else `FileStorage.standard("tokens")`.
    public convenience init(accountID: String) {
        #if canImport(Security)
        self.init(accountID: accountID, storage: KeychainStorage())
        #else
        self.init(accountID: accountID, storage: FileStorage.standard("tokens"))
        #endif
    }

    /// The store of `accountID` in `storage` (tests, or an app's own secure storage).
    public init(accountID: String, storage: any PersistentStorage) {
        self.accountID = accountID
        self.storage = storage
    }

    /// The account's binding, nil when none was kept.
    public func binding() -> ReferralBinding? {
        storage.data(forKey: key).flatMap { try? JSONDecoder().decode(ReferralBinding.self, from: $0) }
    }

    /// Keeps `binding` for this account; false (and nothing kept) when its token is held by another account here.
    @discardableResult
    public func save(_ binding: ReferralBinding) -> Bool {
        let tokenKey = "token." + binding.appAccountToken.uuidString.lowercased()
        if let holder = storage.data(forKey: tokenKey), holder != Data(accountID.utf8) { return false }
        storage.setData(Data(accountID.utf8), forKey: tokenKey)
        guard let data = try? JSONEncoder().encode(binding) else { return false }
        storage.setData(data, forKey: key)
        return true
    }

    /// Forgets the account's binding (its token stays noted as this account's).
    public func remove() {
        storage.setData(nil, forKey: key)
    }

    /// `binding.<hex of the account id's UTF-8>`: any account id makes a safe key.
    private var key: String {
        "binding." + accountID.utf8.map { String(format: "%02x", $0) }.joined()
    }
}
