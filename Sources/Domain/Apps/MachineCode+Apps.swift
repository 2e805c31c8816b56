/// The machine codes of apps and their store URLs (issue 14).
extension MachineCode {
    /// An app id that is not a UUID in canonical text form.
    public static let appIDFormat = MachineCode(rawValue: "VALIDATION_APP_ID_FORMAT")
    /// A destination id that is not a UUID in canonical text form.
    public static let destinationIDFormat = MachineCode(rawValue: "VALIDATION_DESTINATION_ID_FORMAT")
    /// A platform that is not `ios` or `android`.
    public static let platformFormat = MachineCode(rawValue: "VALIDATION_PLATFORM_FORMAT")
    /// An `appAppleId` that is not a positive 64-bit integer.
    public static let appAppleIDFormat = MachineCode(rawValue: "VALIDATION_APP_APPLE_ID_FORMAT")
    /// A destination scheme that is not `x3` or `attribloom`.
    public static let destinationSchemeFormat = MachineCode(rawValue: "VALIDATION_DESTINATION_SCHEME_FORMAT")
    /// A secret (RevenueCat authorization, Google push audience, destination secret) outside its length or characters.
    public static let secretFormat = MachineCode(rawValue: "VALIDATION_SECRET_FORMAT")
    /// A Google service-account key that is not the JSON key file Google Cloud issues.
    public static let serviceAccountKeyFormat = MachineCode(rawValue: "VALIDATION_SERVICE_ACCOUNT_KEY_FORMAT")
    /// A value valid on its own that does not fit the app's platform (409): a bundle id of the other platform, an
    /// `attribloom` destination for an Android app.
    public static let appPlatformConflict = MachineCode(rawValue: "APP_PLATFORM_CONFLICT")
    /// The app already has the most live forward destinations it may have.
    public static let destinationLimit = MachineCode(rawValue: "APP_DESTINATION_LIMIT")
}
