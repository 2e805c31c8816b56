import Domain
import Foundation

/// A store notification that passed its store's checks, ready to record: which app it came to, what it is, the
/// exact bytes, how it names its buyer, and what it does to entitlements.
public struct StoreIntake: Sendable, Equatable {
    /// How a notification names the buyer it is about.
    public enum BuyerReference: Sendable, Equatable {
        /// A StoreKit `appAccountToken` Handoff minted (`POST /public/app-account-token`).
        case appAccountToken(UUID)
        /// Ids of which the first that is a buyer of the org counts (RevenueCat `app_user_id`, then aliases;
        /// Google `obfuscatedExternalAccountId`).
        case candidates([String])
        case none
    }

    public var org: UUID
    public var appId: UUID
    public var projectId: String
    public var store: NotificationStore
    public var notificationId: String
    public var notificationType: String
    public var subtype: String?
    public var environment: String?
    /// False for a Google notification taken without a push service account: stored, never applied or forwarded.
    public var verified: Bool
    public var storeTokenHash: String
    /// The request body exactly as received.
    public var body: [UInt8]
    /// The app's forward destinations at arrival.
    public var destinations: [String]
    public var buyer: BuyerReference
    public var effect: StoreEffect
    /// The App Store sale or refund the commission ledger weighs (nil for other stores and other notifications).
    public var sale: CommissionSale?

    public init(org: UUID, appId: UUID, projectId: String, store: NotificationStore, notificationId: String,
                notificationType: String, subtype: String?, environment: String?, verified: Bool,
                storeTokenHash: String, body: [UInt8], destinations: [String], buyer: BuyerReference,
                effect: StoreEffect, sale: CommissionSale? = nil) {
        self.org = org
        self.appId = appId
        self.projectId = projectId
        self.store = store
        self.notificationId = notificationId
        self.notificationType = notificationType
        self.subtype = subtype
        self.environment = environment
        self.verified = verified
        self.storeTokenHash = storeTokenHash
        self.body = body
        self.destinations = destinations
        self.buyer = buyer
        self.effect = effect
        self.sale = sale
    }
}

extension StoreIntake {
    /// An intake for `app`: its org, ids, token hash and current destinations, with the notification's own facts.
    public init(app: AppLookup.StoreApp, store: NotificationStore, notificationId: String, notificationType: String,
                subtype: String?, environment: String?, verified: Bool, body: [UInt8], buyer: BuyerReference,
                effect: StoreEffect, sale: CommissionSale? = nil) {
        self.init(org: app.orgId.uuid, appId: app.appId.uuid, projectId: app.projectId.description, store: store,
                  notificationId: notificationId, notificationType: notificationType, subtype: subtype,
                  environment: environment, verified: verified, storeTokenHash: app.storeTokenHash, body: body,
                  destinations: app.destinations.map(\.description), buyer: buyer, effect: effect,
                  sale: sale)
    }
}
