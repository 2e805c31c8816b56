import Commands
import Domain

/// The body limits of the store URLs, from what each store sends, with a wide margin (docs/store-notifications.md).
enum StoreIntakeLimits {
    /// Apple documents no maximum: a notification with its three JWS and their chains is ~15 KB (256 KiB taken).
    /// Google's RTDN messages are under 1 KB inside a Pub/Sub push envelope (64 KiB taken). RevenueCat events carry
    /// subscriber attributes of up to 500 characters each (256 KiB taken).
    static func bodyLimit(_ store: NotificationStore) -> Int {
        switch store {
        case .apple: return AppleIntake.bodyLimit
        case .google: return 64 * 1024
        case .revenuecat: return 256 * 1024
        }
    }
}
