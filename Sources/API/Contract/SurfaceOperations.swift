import Commands
import Domain

/// `POST /v1/app-store/assn/{surfaceId}`: App Store notifications forwarded by a developer's server (issue 15).
enum SurfaceOperations {
    static let surfaceId = OpenAPIParameter.path(
        "surfaceId", JSONSchema.string(pattern: "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}"
            + "-[0-9A-Fa-f]{12}$", lengths: 36...36, format: "uuid"),
        "the surface's id (handoff admin surface create)")

    static let timestamp = OpenAPIParameter(
        name: "x-ea-timestamp", location: .header,
        schema: JSONSchema.string(pattern: "^[0-9]{1,\(ForwardedSignature.maxTimestampDigits)}$",
                                  lengths: 1...ForwardedSignature.maxTimestampDigits),
        required: true,
        description: "unix seconds when the request was first signed; at most SURFACE_TIMESTAMP_MAX_AGE_HOURS "
            + "(default 72) hours in the past and 5 minutes in the future")

    static let signature = OpenAPIParameter(
        name: "x-ea-signature", location: .header,
        schema: JSONSchema.string(pattern: "^sha256=[0-9A-Fa-f]{64}$", lengths: 71...71), required: true,
        description: "sha256=<hex HMAC-SHA256(key = the forwarding secret, timestamp + \".\" + the raw body)>")

    static let forwarded = OpenAPIOperation(
        id: "receiveForwardedAppStoreNotification",
        summary: "An App Store Server Notification V2 forwarded by the developer's server to a surface",
        description: "The body is Apple's {\"signedPayload\":…} as the developer's server received it; the signature "
            + "covers its bytes exactly as sent. It is verified and applied as at the app's own App Store URL, and "
            + "never forwarded on. A notificationUUID already received, here or at the app's store URL, changes "
            + "nothing.",
        tag: "stores",
        parameters: [surfaceId, timestamp, signature],
        body: StoreOperations.apple.body,
        responses: [
            .empty(200, "accepted or a repeat (the same answer): recorded once, applied"),
            .error(400, "not {\"signedPayload\":…} or not a JWS of the App Store's form", codes: [.validationFailed]),
            .error(401, "x-ea-timestamp outside its window or x-ea-signature not made with the surface's secret; or "
                   + "the JWS does not check out for the surface's app; nothing recorded", codes: [.unauthorized]),
            .error(404, "the same answer for every unknown or malformed surface id", codes: []),
            .error(429, "over \(Environment.defaultSurfaceLimit.burst) per second for this surface",
                   codes: [.rateLimited], retryAfter: true),
        ])

    /// The link from an iOS app's answer to the forwarding URL; the surface id comes from `handoff admin surface
    /// create`, which the document cannot name.
    static let links: [OpenAPILink] = [
        OpenAPILink(name: "forwardedAppStoreNotification", operationId: "receiveForwardedAppStoreNotification",
                    description: "the developer's server forwards the app's App Store notifications to a surface"),
    ]
}
