/// The sealed fields of apps (subject `app:<appId>`): each name is bound into its sealed value, so a value copied
/// into another field does not open. Stable public values, like the buyer fields.
extension PersonalDataField {
    /// An app's store token (the last segment of its store URLs).
    public static let storeToken = PersonalDataField(rawValue: "storeToken")
    /// A forward destination's signing secret.
    public static let destinationSecret = PersonalDataField(rawValue: "destinationSecret")
}
