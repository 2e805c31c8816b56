/// The sealed field of surfaces: a surface's forwarding secret, sealed for its app (subject `app:<appId>`). A stable
/// public value, like the app fields.
extension PersonalDataField {
    /// A surface's forwarding secret (the HMAC key of `x-ea-signature`).
    public static let forwardingSecret = PersonalDataField(rawValue: "forwardingSecret")
}
