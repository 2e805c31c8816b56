import API
import Commands

/// Identity secrets for tests: fixed keys, so passes issued by one responder verify in another.
enum TestIdentity {
    static let oldPassKey: [UInt8] = Array(repeating: 0x11, count: 32)
    static let newPassKey: [UInt8] = Array(repeating: 0x22, count: 32)

    /// Master key, pepper and pass keys (`old1` signing unless `passKeys` says otherwise).
    static func secrets(passKeys: [(id: String, key: [UInt8])] = [("old1", oldPassKey)]) -> IdentitySecrets {
        IdentitySecrets(masterKey: Array(repeating: 0x33, count: 32), lookupPepper: Array(repeating: 0x44, count: 32),
                        passKeys: passKeys)
    }

    /// `count` per minute per IP, fails closed, under a name of its own (as `uniquePaywallLimit`).
    static func uniqueLimit(count: Int) -> RateLimit {
        RateLimit.perWindow(name: "limit-test-\(UInt64.random(in: 0...UInt64.max))", count: count, seconds: 60,
                            onFailure: .closed)
    }

    /// The production shape of the per-IP batch limit (600/min, open without Redis) under a name of its own, so
    /// tests sending batches from one client IP do not share a budget.
    static func uniqueBatchAddressLimit() -> RateLimit {
        RateLimit.perWindow(name: "batch-ip-test-\(UInt64.random(in: 0...UInt64.max))", count: 600, seconds: 60,
                            onFailure: .openWithCap(perProcessPerSecond: 2000))
    }

    /// The production shape of the paywall-buyer limit (30/min, closed) under a name of its own, so tests that
    /// share a Redis and a client IP do not share a budget.
    static func uniquePaywallLimit() -> RateLimit {
        RateLimit.perWindow(name: "paywall-test-\(UInt64.random(in: 0...UInt64.max))", count: 30, seconds: 60,
                            onFailure: .closed)
    }
}
