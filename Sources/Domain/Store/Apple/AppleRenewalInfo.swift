import Foundation

/// Decoded subscription renewal info (`JWSRenewalInfoDecodedPayload`): what `signedRenewalInfo` signs.
///
/// Instants are milliseconds since 1970; `renewalPrice` is in milliunits of `currency`. Unknown fields are ignored.
public struct AppleRenewalInfo: Sendable, Equatable, Decodable {
    /// `originalTransactionId`.
    public let originalTransactionId: String?
    /// `productId`: the product of the current period.
    public let productId: String?
    /// `autoRenewProductId`: the product that renews next.
    public let autoRenewProductId: String?
    /// `autoRenewStatus`: 1 on, 0 off.
    public let autoRenewStatus: Int64?
    /// `expirationIntent`: why the subscription expired (1 cancelled, 2 billing error, …).
    public let expirationIntent: Int64?
    /// `isInBillingRetryPeriod`.
    public let isInBillingRetryPeriod: Bool?
    /// `gracePeriodExpiresDate`.
    public let gracePeriodExpiresDate: Int64?
    /// `priceIncreaseStatus`: 0 not yet consented, 1 consented or not needed.
    public let priceIncreaseStatus: Int64?
    /// `offerType`.
    public let offerType: Int64?
    /// `offerIdentifier`.
    public let offerIdentifier: String?
    /// `offerDiscountType`.
    public let offerDiscountType: String?
    /// `offerPeriod`.
    public let offerPeriod: String?
    /// `signedDate`.
    public let signedDate: Int64?
    /// `environment`: `Production` or `Sandbox`.
    public let environment: String?
    /// `recentSubscriptionStartDate`.
    public let recentSubscriptionStartDate: Int64?
    /// `renewalDate`: when the subscription renews next.
    public let renewalDate: Int64?
    /// `currency`: ISO 4217 of `renewalPrice`.
    public let currency: String?
    /// `renewalPrice`: milliunits of `currency`.
    public let renewalPrice: Int64?
    /// `eligibleWinBackOfferIds`.
    public let eligibleWinBackOfferIds: [String]?
    /// `appAccountToken`.
    public let appAccountToken: String?
    /// `appTransactionId`.
    public let appTransactionId: String?

    /// Decodes the JSON payload of a renewal info JWS.
    public static func decode(_ bytes: [UInt8]) -> Result<AppleRenewalInfo, ApplePayloadFailure> {
        AppleJSON.decode(AppleRenewalInfo.self, from: bytes)
    }

    /// `signedDate` as a `Date`.
    public var signedAt: Date? { signedDate.map(AppleTime.date(milliseconds:)) }
    /// `renewalDate` as a `Date`.
    public var renewsAt: Date? { renewalDate.map(AppleTime.date(milliseconds:)) }

    private enum CodingKeys: String, CodingKey {
        case originalTransactionId, productId, autoRenewProductId, autoRenewStatus, expirationIntent,
             isInBillingRetryPeriod, gracePeriodExpiresDate, priceIncreaseStatus, offerType, offerIdentifier,
             offerDiscountType, offerPeriod, signedDate, environment, recentSubscriptionStartDate, renewalDate,
             currency, renewalPrice, eligibleWinBackOfferIds, appAccountToken, appTransactionId
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        originalTransactionId = try c.text(.originalTransactionId, limit: AppleFieldLimits.identifier)
        productId = try c.text(.productId, limit: AppleFieldLimits.productIdentifier)
        autoRenewProductId = try c.text(.autoRenewProductId, limit: AppleFieldLimits.productIdentifier)
        autoRenewStatus = try c.integer(.autoRenewStatus)
        expirationIntent = try c.integer(.expirationIntent)
        isInBillingRetryPeriod = try c.flag(.isInBillingRetryPeriod)
        gracePeriodExpiresDate = try c.integer(.gracePeriodExpiresDate)
        priceIncreaseStatus = try c.integer(.priceIncreaseStatus)
        offerType = try c.integer(.offerType)
        offerIdentifier = try c.text(.offerIdentifier, limit: AppleFieldLimits.productIdentifier)
        offerDiscountType = try c.text(.offerDiscountType, limit: AppleFieldLimits.word)
        offerPeriod = try c.text(.offerPeriod, limit: AppleFieldLimits.word)
        signedDate = try c.integer(.signedDate)
        environment = try c.text(.environment, limit: AppleFieldLimits.word)
        recentSubscriptionStartDate = try c.integer(.recentSubscriptionStartDate)
        renewalDate = try c.integer(.renewalDate)
        currency = try c.text(.currency, limit: AppleFieldLimits.currency)
        renewalPrice = try c.integer(.renewalPrice)
        eligibleWinBackOfferIds = try c.texts(.eligibleWinBackOfferIds, limit: AppleFieldLimits.productIdentifier)
        appAccountToken = try c.text(.appAccountToken, limit: AppleFieldLimits.uuid)
        appTransactionId = try c.text(.appTransactionId, limit: AppleFieldLimits.identifier)
    }
}
