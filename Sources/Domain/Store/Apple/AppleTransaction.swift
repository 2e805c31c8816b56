import Foundation

/// A decoded App Store transaction (`JWSTransactionDecodedPayload`): what `signedTransactionInfo` signs.
///
/// Instants are milliseconds since 1970 as Apple sends them (`…At` accessors give `Date`s); `price` is in
/// milliunits of `currency` (`10990` with `USD` is $10.99). Unknown fields are ignored.
public struct AppleTransaction: Sendable, Equatable, Decodable {
    /// `transactionId`.
    public let transactionId: String?
    /// `originalTransactionId`: the first transaction of a subscription (its renewals share it).
    public let originalTransactionId: String?
    /// `webOrderLineItemId`: a subscription purchase event across devices.
    public let webOrderLineItemId: String?
    /// `bundleId`.
    public let bundleId: String?
    /// `productId`.
    public let productId: String?
    /// `subscriptionGroupIdentifier`.
    public let subscriptionGroupIdentifier: String?
    /// `purchaseDate`.
    public let purchaseDate: Int64?
    /// `originalPurchaseDate`.
    public let originalPurchaseDate: Int64?
    /// `expiresDate`: when the subscription period ends (subscriptions only).
    public let expiresDate: Int64?
    /// `quantity`.
    public let quantity: Int64?
    /// `type`: `Auto-Renewable Subscription`, `Non-Consumable`, `Consumable`, `Non-Renewing Subscription`.
    public let type: String?
    /// `appAccountToken`: the UUID the app passed at purchase (Handoff mints these per buyer), as sent.
    public let appAccountToken: String?
    /// `inAppOwnershipType`: `PURCHASED` or `FAMILY_SHARED`.
    public let inAppOwnershipType: String?
    /// `signedDate`: when the App Store signed this transaction.
    public let signedDate: Int64?
    /// `revocationReason`: 0 other, 1 app issue (refund or revocation).
    public let revocationReason: Int64?
    /// `revocationDate`: when Apple refunded or revoked the transaction.
    public let revocationDate: Int64?
    /// `isUpgraded`: the user upgraded to another subscription.
    public let isUpgraded: Bool?
    /// `offerType`: 1 introductory, 2 promotional, 3 offer code, 4 win-back.
    public let offerType: Int64?
    /// `offerIdentifier`.
    public let offerIdentifier: String?
    /// `environment`: `Production` or `Sandbox`.
    public let environment: String?
    /// `storefront`: ISO 3166-1 alpha-3 country code.
    public let storefront: String?
    /// `storefrontId`.
    public let storefrontId: String?
    /// `transactionReason`: `PURCHASE` or `RENEWAL`.
    public let transactionReason: String?
    /// `currency`: ISO 4217.
    public let currency: String?
    /// `price`: milliunits of `currency`.
    public let price: Int64?
    /// `offerDiscountType`: `FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`, `ONE_TIME`.
    public let offerDiscountType: String?
    /// `offerPeriod`: ISO 8601 duration of the offer.
    public let offerPeriod: String?
    /// `appTransactionId`: the app download the transaction belongs to.
    public let appTransactionId: String?

    /// Decodes the JSON payload of a transaction JWS.
    public static func decode(_ bytes: [UInt8]) -> Result<AppleTransaction, ApplePayloadFailure> {
        AppleJSON.decode(AppleTransaction.self, from: bytes)
    }

    /// `appAccountToken` as a UUID; nil when absent or not a UUID.
    public var appAccountTokenUUID: UUID? { appAccountToken.flatMap(CanonicalUUID.parse) }
    /// `purchaseDate` as a `Date`.
    public var purchasedAt: Date? { purchaseDate.map(AppleTime.date(milliseconds:)) }
    /// `expiresDate` as a `Date`.
    public var expiresAt: Date? { expiresDate.map(AppleTime.date(milliseconds:)) }
    /// `revocationDate` as a `Date`.
    public var revokedAt: Date? { revocationDate.map(AppleTime.date(milliseconds:)) }
    /// `signedDate` as a `Date`.
    public var signedAt: Date? { signedDate.map(AppleTime.date(milliseconds:)) }

    private enum CodingKeys: String, CodingKey {
        case transactionId, originalTransactionId, webOrderLineItemId, bundleId, productId,
             subscriptionGroupIdentifier, purchaseDate, originalPurchaseDate, expiresDate, quantity, type,
             appAccountToken, inAppOwnershipType, signedDate, revocationReason, revocationDate, isUpgraded,
             offerType, offerIdentifier, environment, storefront, storefrontId, transactionReason, currency, price,
             offerDiscountType, offerPeriod, appTransactionId
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        transactionId = try c.text(.transactionId, limit: AppleFieldLimits.identifier)
        originalTransactionId = try c.text(.originalTransactionId, limit: AppleFieldLimits.identifier)
        webOrderLineItemId = try c.text(.webOrderLineItemId, limit: AppleFieldLimits.identifier)
        bundleId = try c.text(.bundleId, limit: AppleFieldLimits.bundleId)
        productId = try c.text(.productId, limit: AppleFieldLimits.productIdentifier)
        subscriptionGroupIdentifier = try c.text(.subscriptionGroupIdentifier,
                                                 limit: AppleFieldLimits.productIdentifier)
        purchaseDate = try c.integer(.purchaseDate)
        originalPurchaseDate = try c.integer(.originalPurchaseDate)
        expiresDate = try c.integer(.expiresDate)
        quantity = try c.integer(.quantity)
        type = try c.text(.type, limit: AppleFieldLimits.word)
        appAccountToken = try c.text(.appAccountToken, limit: AppleFieldLimits.uuid)
        inAppOwnershipType = try c.text(.inAppOwnershipType, limit: AppleFieldLimits.word)
        signedDate = try c.integer(.signedDate)
        revocationReason = try c.integer(.revocationReason)
        revocationDate = try c.integer(.revocationDate)
        isUpgraded = try c.flag(.isUpgraded)
        offerType = try c.integer(.offerType)
        offerIdentifier = try c.text(.offerIdentifier, limit: AppleFieldLimits.productIdentifier)
        environment = try c.text(.environment, limit: AppleFieldLimits.word)
        storefront = try c.text(.storefront, limit: AppleFieldLimits.word)
        storefrontId = try c.text(.storefrontId, limit: AppleFieldLimits.identifier)
        transactionReason = try c.text(.transactionReason, limit: AppleFieldLimits.word)
        currency = try c.text(.currency, limit: AppleFieldLimits.currency)
        price = try c.integer(.price)
        offerDiscountType = try c.text(.offerDiscountType, limit: AppleFieldLimits.word)
        offerPeriod = try c.text(.offerPeriod, limit: AppleFieldLimits.word)
        appTransactionId = try c.text(.appTransactionId, limit: AppleFieldLimits.identifier)
    }
}
