import Foundation

/// The decoded payload of an App Store Server Notification V2 (`responseBodyV2DecodedPayload`): what the
/// `signedPayload` JWS of `POST {"signedPayload": …}` signs.
///
/// Decoding checks types and length limits (`AppleFieldLimits`); unknown fields are ignored, since Apple adds
/// fields over time. Nested JWS (`data.signedTransactionInfo`, `data.signedRenewalInfo`) stay text here: the
/// verifier checks and decodes them.
public struct AppleNotificationPayload: Sendable, Equatable, Decodable {
    /// `notificationType`: `SUBSCRIBED`, `DID_RENEW`, `EXPIRED`, `REFUND`, `TEST`, … (required).
    public let notificationType: String
    /// `subtype`: `INITIAL_BUY`, `RESUBSCRIBE`, `VOLUNTARY`, … when the type has one.
    public let subtype: String?
    /// `notificationUUID`: Apple's unique id of the notification, the same on every retry (required, a UUID).
    public let notificationUUID: String
    /// `version`: `2.0`.
    public let version: String?
    /// `signedDate`: when the App Store signed the notification, milliseconds since 1970.
    public let signedDate: Int64?
    /// `data`: the app and, for most types, the signed transaction and renewal info.
    public let data: AppleNotificationData?
    /// `summary`: for `RENEWAL_EXTENSION` with subtype `SUMMARY` instead of `data`.
    public let summary: AppleNotificationSummary?
    /// `externalPurchaseToken`: for `EXTERNAL_PURCHASE_TOKEN` instead of `data`.
    public let externalPurchaseToken: AppleExternalPurchaseToken?
    /// `appData`: for app-level notifications (e.g. `RESCIND_CONSENT`) instead of `data`.
    public let appData: AppleNotificationAppData?

    /// Decodes the JSON payload of a notification JWS.
    public static func decode(_ bytes: [UInt8]) -> Result<AppleNotificationPayload, ApplePayloadFailure> {
        AppleJSON.decode(AppleNotificationPayload.self, from: bytes)
    }

    /// `signedDate` as a `Date`.
    public var signedAt: Date? { signedDate.map(AppleTime.date(milliseconds:)) }

    /// The app and environment the notification names, from `data`, else `summary`, else `externalPurchaseToken`
    /// (environment `Sandbox` when its `externalPurchaseId` starts with `SANDBOX`, else `Production`), else
    /// `appData` — the order of Apple's own library.
    public var app: AppleNotificationApp {
        if let data {
            return AppleNotificationApp(bundleId: data.bundleId, appAppleId: data.appAppleId,
                                        environment: data.environment)
        }
        if let summary {
            return AppleNotificationApp(bundleId: summary.bundleId, appAppleId: summary.appAppleId,
                                        environment: summary.environment)
        }
        if let token = externalPurchaseToken {
            let sandbox = token.externalPurchaseId?.hasPrefix("SANDBOX") == true
            return AppleNotificationApp(bundleId: token.bundleId, appAppleId: token.appAppleId,
                                        environment: sandbox ? AppleEnvironment.sandbox.rawValue
                                            : AppleEnvironment.production.rawValue)
        }
        if let appData {
            return AppleNotificationApp(bundleId: appData.bundleId, appAppleId: appData.appAppleId,
                                        environment: appData.environment)
        }
        return AppleNotificationApp(bundleId: nil, appAppleId: nil, environment: nil)
    }

    private enum CodingKeys: String, CodingKey {
        case notificationType, subtype, notificationUUID, version, signedDate, data, summary, externalPurchaseToken,
             appData
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let type = try c.text(.notificationType, limit: AppleFieldLimits.word), !type.isEmpty else {
            throw AppleJSON.FieldRefused(path: "notificationType", rule: "is required")
        }
        notificationType = type
        subtype = try c.text(.subtype, limit: AppleFieldLimits.word)
        guard let uuid = try c.text(.notificationUUID, limit: AppleFieldLimits.uuid) else {
            throw AppleJSON.FieldRefused(path: "notificationUUID", rule: "is required")
        }
        guard CanonicalUUID.parse(uuid) != nil else {
            throw AppleJSON.FieldRefused(path: "notificationUUID", rule: "must be a UUID")
        }
        notificationUUID = uuid
        version = try c.text(.version, limit: AppleFieldLimits.word)
        signedDate = try c.integer(.signedDate)
        data = try c.decodeIfPresent(AppleNotificationData.self, forKey: .data)
        summary = try c.decodeIfPresent(AppleNotificationSummary.self, forKey: .summary)
        externalPurchaseToken = try c.decodeIfPresent(AppleExternalPurchaseToken.self, forKey: .externalPurchaseToken)
        appData = try c.decodeIfPresent(AppleNotificationAppData.self, forKey: .appData)
    }
}

/// The app a notification names: what the verifier compares with the app the notification arrived for.
public struct AppleNotificationApp: Sendable, Equatable {
    /// `bundleId`.
    public let bundleId: String?
    /// `appAppleId` (absent in Sandbox).
    public let appAppleId: Int64?
    /// `environment` as sent (`Production`, `Sandbox`, …).
    public let environment: String?

    public init(bundleId: String?, appAppleId: Int64?, environment: String?) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
    }
}

/// Milliseconds since 1970, as Apple's payloads give instants.
public enum AppleTime {
    /// The instant `milliseconds` after 1970-01-01T00:00:00Z.
    public static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
