import Foundation

/// How an app learned a buyer's guid: the paths of the handoff report, in the report's order.
public enum IdentificationPath: String, Hashable, Sendable, CaseIterable, Codable {
    /// The tenant created the buyer with its own `externalId`, so its app asks by that id.
    case externalId
    /// A handoff code shown after the payment was redeemed.
    case handoffCode
    /// The install token was redeemed (Play referrer or tracker link).
    case installToken
    /// Resolve-by-fingerprint, exact match.
    case fingerprintExact
    /// Resolve-by-fingerprint, IP match.
    case fingerprintIp
    /// A code from a recovery mail was redeemed.
    case recoveryMail
    /// The payment came from a store notification for a buyer the app already named.
    case storeNotification

    /// The path in words, as the verdict says it.
    public var words: String {
        switch self {
        case .externalId: "externalId"
        case .handoffCode: "handoff code"
        case .installToken: "install token (Play referrer or tracker)"
        case .fingerprintExact: "fingerprint (exact)"
        case .fingerprintIp: "fingerprint (IP)"
        case .recoveryMail: "recovery mail"
        case .storeNotification: "store notification"
        }
    }
}
