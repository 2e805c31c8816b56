import Commands
import Domain

/// `POST /v1/m/store/{apple|google|revenuecat}/{token}`: the stores' server notifications (issue 14).
enum StoreOperations {
    static let token = OpenAPIParameter.path(
        "token", JSONSchema.string(pattern: StoreToken.pattern, lengths: StoreToken.length...StoreToken.length),
        "the app's store token (its store URLs' last segment)")

    static let notFound = OpenAPIResponse.error(404, "the same answer for every unknown, malformed or rotated token",
                                                codes: [])
    static let limited = OpenAPIResponse.error(
        429, "over \(Environment.defaultStoreLimit.burst) per second for this store token", codes: [.rateLimited],
        retryAfter: true)

    static func operation(_ store: NotificationStore) -> OpenAPIOperation {
        switch store {
        case .apple: return apple
        case .google: return google
        case .revenuecat: return revenueCat
        }
    }

    static let apple = OpenAPIOperation(
        id: "receiveAppStoreNotification", summary: "App Store Server Notifications V2 for an app",
        description: "The signedPayload must verify as Apple's App Store Server Library verifies it, for the app's "
            + "bundle id (and appAppleId in Production). A repeated notificationUUID changes nothing.",
        tag: "stores",
        parameters: [token],
        body: .object([.required("signedPayload", JSONSchema.string(pattern: "^[A-Za-z0-9_.=-]+$",
                                                                  lengths: 1...(AppleIntake.bodyLimit - 64))
            .described("a JWS: header.payload.signature, ES256 with an x5c chain"))], closed: false),
        responses: [
            .empty(200, "accepted (or a repeat): recorded once, applied, forwarded later"),
            .error(400, "not {\"signedPayload\":…} or not a JWS of the App Store's form", codes: [.validationFailed]),
            .error(401, "signature, chain, certificate OIDs, validity, bundle id, environment or appAppleId do not "
                   + "check out; nothing recorded", codes: [.unauthorized]),
            notFound, limited,
        ])

    static let google = OpenAPIOperation(
        id: "receiveGooglePlayNotification", summary: "Google Play real-time developer notifications (Pub/Sub push)",
        description: "With a push service account set on the app, the Authorization bearer token must be Google's "
            + "OIDC token for it; without one the notification is stored but never applied or forwarded. A "
            + "repeated messageId changes nothing.",
        tag: "stores",
        parameters: [token, .header("Authorization", .string(), "Bearer <Google-signed OIDC token>")],
        body: .object([
            .required("message", .object([
                .required("data", JSONSchema.string(pattern: "^[A-Za-z0-9+/=_-]+$", lengths: 1...48_000)
                    .described("base64 DeveloperNotification JSON")),
                .required("messageId", JSONSchema.string(lengths: 1...256)),
            ], closed: false)),
            .optional("subscription", JSONSchema.string(lengths: 1...255)),
        ], closed: false),
        responses: [
            .empty(204, "accepted (or a repeat)"),
            .error(400, "not a Pub/Sub push of a DeveloperNotification",
                   codes: [.validationFailed]),
            .error(401, "the push token does not verify, or the packageName is another app's; nothing recorded",
                   codes: [.unauthorized]),
            notFound, limited,
        ])

    static let revenueCat = OpenAPIOperation(
        id: "receiveRevenueCatWebhook", summary: "RevenueCat webhooks for an app",
        description: "Authorization must equal the app's RevenueCat secret. A repeated event.id changes nothing.",
        tag: "stores",
        parameters: [token, .header("Authorization", .string(), "the app's RevenueCat secret, exactly")],
        body: .object([
            .required("event", .object([
                .required("id", JSONSchema.string(lengths: 1...RevenueCatWebhook.maxIdentifierLength)),
                .required("type", JSONSchema.string(lengths: 1...RevenueCatWebhook.maxIdentifierLength)),
            ], closed: false)),
        ], closed: false),
        responses: [
            .empty(200, "accepted (or a repeat)"),
            .error(400, "not a RevenueCat webhook", codes: [.validationFailed]),
            .error(401, "Authorization is not the app's RevenueCat secret; nothing recorded", codes: [.unauthorized]),
            notFound, limited,
        ])

    /// Links from an answer carrying a store token (`storeToken` at the top) to the store URLs.
    static let links: [OpenAPILink] = [
        OpenAPILink(name: "appStoreNotification", operationId: "receiveAppStoreNotification",
                    parameters: [("token", "$response.body#/storeToken")], description: "Apple posts here"),
        OpenAPILink(name: "googlePlayNotification", operationId: "receiveGooglePlayNotification",
                    parameters: [("token", "$response.body#/storeToken")], description: "Pub/Sub pushes here"),
        OpenAPILink(name: "revenueCatWebhook", operationId: "receiveRevenueCatWebhook",
                    parameters: [("token", "$response.body#/storeToken")], description: "RevenueCat posts here"),
    ]
}
