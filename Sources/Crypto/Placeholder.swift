import COpenSSL

/// Placeholder replaced by the Crypto client.
enum CryptoPlaceholder {}
