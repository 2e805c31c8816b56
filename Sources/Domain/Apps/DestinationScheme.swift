/// How a forward destination is signed and what it receives (docs/store-notifications.md "Forwarding").
///
/// - `x3`: every verified notification, byte for byte, with `x-x3-signature` (HMAC-SHA256 keyed with the
///   destination's secret, or the app's store token when it has none). The app's forward URL is its default `x3`
///   destination.
/// - `attribloom`: App Store notifications only, as `{"signedPayload":…}` with `x-ea-timestamp` and `x-ea-signature`
///   (HMAC-SHA256 keyed with the destination's secret, which it must have); only an iOS app may have one.
public enum DestinationScheme: String, Hashable, Sendable, CaseIterable, Codable {
    case x3
    case attribloom

    /// Whether a destination of this scheme needs a signing secret of its own.
    public var requiresSecret: Bool { self == .attribloom }

    /// Parses `x3` or `attribloom`; refuses with `VALIDATION_DESTINATION_SCHEME_FORMAT` naming `field`.
    public static func parse(_ text: String, field: String = "scheme") -> Result<DestinationScheme, FieldRefusal> {
        guard let scheme = DestinationScheme(rawValue: text) else {
            return .failure(FieldRefusal(field: field, code: .destinationSchemeFormat, rule: "be x3 or attribloom"))
        }
        return .success(scheme)
    }
}
