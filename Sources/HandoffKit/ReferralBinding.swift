import Foundation

/// A referral bound to an App Store `appAccountToken` (the answer of `POST /v1/app-store/bind`), kept per account.
public struct ReferralBinding: Sendable, Equatable, Codable {
    /// Pass it to every StoreKit 2 purchase of the account (`Product.PurchaseOption.appAccountToken`).
    public let appAccountToken: UUID
    /// The campaign's App Store offer code to present to the buyer, when it has one.
    public let offerCode: String?
    /// When the referral's window ends (nil when the server gave none).
    public let expiresAt: Date?

    /// A binding with these values.
    public init(appAccountToken: UUID, offerCode: String?, expiresAt: Date?) {
        self.appAccountToken = appAccountToken
        self.offerCode = offerCode
        self.expiresAt = expiresAt
    }
}
