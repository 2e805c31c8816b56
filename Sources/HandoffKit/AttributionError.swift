import Foundation

/// Why `Attribution.resolveToken(signedClickId:refCode:)` bound nothing. The purchase path never throws: without a
/// binding, `appAccountToken()` is nil and the purchase goes on without one.
public enum AttributionError: Error, Sendable, Equatable {
    /// Give exactly one of a click id and a referral code (after trimming, both were empty or both were given);
    /// nothing was sent.
    case clickOrCodeRequired
    /// The server refused the input's form (400) with this code: `VALIDATION_SIGNED_CLICK_ID_FORMAT`,
    /// `VALIDATION_REF_CODE_FORMAT`, `VALIDATION_GUID_FORMAT`, `VALIDATION_PROJECT_ID_FORMAT`,
    /// `VISITOR_ID_FOREIGN_PROJECT`, …
    case invalidInput(code: String?)
    /// No referral matches: the click is unknown, expired or tampered, the code unknown (404).
    case noReferral
    /// The token the server answered is held by another account on this device; nothing was kept.
    case tokenHeldByAnotherAccount
    /// Too many binds from this address: try again after `retryAfter` seconds.
    case rateLimited(retryAfter: TimeInterval)
    /// The server cannot answer now (503).
    case serverUnavailable(retryAfter: TimeInterval?)
    /// No HTTP answer: the network failed or the timeout passed.
    case network(timedOut: Bool)
    /// An answer the library does not expect.
    case unexpectedAnswer(status: Int)
}
