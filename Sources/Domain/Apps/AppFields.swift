/// The parsers of an app's plain fields: platform, bundle id (by platform), App Store app id.
public enum AppFields {
    /// Parses `ios` or `android`; refuses with `VALIDATION_PLATFORM_FORMAT` naming `field`.
    public static func platform(_ text: String, field: String = "platform") -> Result<DevicePlatform, FieldRefusal> {
        guard let platform = DevicePlatform(rawValue: text) else {
            return .failure(FieldRefusal(field: field, code: .platformFormat, rule: "be ios or android"))
        }
        return .success(platform)
    }

    /// Parses the bundle id of an app on `platform`: an iOS bundle id (`IOSBundleID`) or an Android package name
    /// (`AndroidPackage`); refuses with `VALIDATION_BUNDLE_ID_FORMAT` naming `field` and the platform's rule.
    public static func bundleID(_ text: String, platform: DevicePlatform, field: String = "bundleId")
        -> Result<String, FieldRefusal>
    {
        switch platform {
        case .ios:
            return IOSBundleID.parse(text, field: field).map(\.text)
        case .android:
            return AndroidPackage.parse(text, field: field).map(\.text).mapError { _ in
                FieldRefusal(field: field, code: .bundleIDFormat,
                             rule: "be an Android package name: two or more '.'-separated segments, each a letter "
                                 + "followed by letters, digits or '_'")
            }
        }
    }

    /// The App Store's numeric app id (`appAppleId`): a positive 64-bit integer; refuses with
    /// `VALIDATION_APP_APPLE_ID_FORMAT` naming `field`.
    public static func appAppleID(_ value: Int64, field: String = "appAppleId") -> Result<Int64, FieldRefusal> {
        value > 0 ? .success(value) : .failure(appAppleIDRefusal(field))
    }

    /// The same from text (a CLI flag): decimal digits of a positive 64-bit integer.
    public static func appAppleID(text: String, field: String) -> Result<Int64, FieldRefusal> {
        guard text.utf8.allSatisfy(ASCII.isDigit), let value = Int64(text) else {
            return .failure(appAppleIDRefusal(field))
        }
        return appAppleID(value, field: field)
    }

    private static func appAppleIDRefusal(_ field: String) -> FieldRefusal {
        FieldRefusal(field: field, code: .appAppleIDFormat, rule: "be a positive integer (the App Store's app id)")
    }
}
