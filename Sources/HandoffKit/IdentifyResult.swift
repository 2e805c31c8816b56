import Foundation

/// What `Web2App.identify(deepLinkValue:)` found out about the buyer on this device.
public enum IdentifyResult: Sendable, Equatable {
    /// The buyer's guid (exactly as the server gave it) and the path that found it. The guid is kept, and later
    /// calls answer it at once with the same path.
    case identified(String, via: IdentifyMethod)
    /// Every automatic path missed: only e-mail recovery is left (`onNeedEmail` was called too).
    case needsEmailFallback
    /// The server could not be asked or refused the request: nothing was learned, try again later.
    case failed(Web2AppError)
}

/// The path that found the buyer.
public enum IdentifyMethod: Sendable, Equatable, Codable {
    /// A handoff code: the return link's `code`, one the buyer typed, or one from a recovery mail.
    case code
    /// An install token from a tracker deep link (`deep_link_sub1`, `af_sub1`, `user_id`, `adj_label`) or the Play
    /// install referrer (`referrer`).
    case installToken
    /// The device's fingerprint matched the one the post-payment page recorded.
    case fingerprint(FingerprintMatch)
}

/// How a fingerprint matched (`matchMethod` of the server's answer).
public enum FingerprintMatch: String, Sendable, Equatable, Codable {
    /// Same address, platform, screen and time zone, within 2 hours of the payment (`fingerprint`).
    case exact
    /// Same address and nothing contradicting, within 30 minutes of the payment (`ip`).
    case ip
}
