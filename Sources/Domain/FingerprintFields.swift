import Foundation

/// Checks of the free-text fields of a fingerprint and of a resolve-by-fingerprint call. Each refusal names the
/// field and never echoes the value.
public enum FingerprintFields {
    /// The characters of a time zone name.
    public static let timezoneCharacters = ASCIISet("A-Za-z0-9/_+-")
    /// The lengths of a time zone name.
    public static let timezoneLengths = 1...64
    /// The characters of a language tag.
    public static let languageCharacters = ASCIISet("A-Za-z0-9_-")
    /// The lengths of a language tag.
    public static let languageLengths = 1...35
    /// The characters of an OS version: printable ASCII without the space.
    public static let osVersionCharacters = ASCIISet("!-~")
    /// The lengths of an OS version.
    public static let osVersionLengths = 1...32
    /// The characters of a bundle id or package name as an app reports it.
    public static let bundleIDCharacters = ASCIISet("A-Za-z0-9._-")
    /// The lengths of a bundle id or package name.
    public static let bundleIDLengths = 1...255

    /// An IANA time zone name (`Europe/Berlin`, `America/Argentina/Buenos_Aires`, `UTC`, `Etc/GMT+3`): 1 to 64
    /// characters of letters, digits, `/`, `_`, `+` and `-`. Compared exactly.
    public static func timezone(_ text: String, field: String = "timezone") -> Result<String, FieldRefusal> {
        guard timezoneLengths.contains(text.utf8.count), timezoneCharacters.containsAll(text) else {
            return .failure(FieldRefusal(field: field, code: .validationFailed,
                                         rule: "be an IANA time zone name such as Europe/Berlin"))
        }
        return .success(text)
    }

    /// A BCP 47 language tag as `navigator.language` or the device gives it (`ru-RU`, `en`, `zh-Hant-TW`): 1 to 35
    /// characters of letters, digits, `-` and `_`.
    public static func language(_ text: String, field: String = "language") -> Result<String, FieldRefusal> {
        guard languageLengths.contains(text.utf8.count), languageCharacters.containsAll(text) else {
            return .failure(FieldRefusal(field: field, code: .validationFailed,
                                         rule: "be a language tag such as ru-RU"))
        }
        return .success(text)
    }

    /// The primary language subtag, lowercased: `ru-RU`, `RU` and `ru_ru` all give `ru`. What the matcher compares.
    public static func primaryLanguage(_ tag: String) -> String {
        String(tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "").lowercased()
    }

    /// The OS version the app reports (`17.4.1`, `14`): 1 to 32 printable ASCII characters. It takes no part in
    /// matching.
    public static func osVersion(_ text: String, field: String = "osVersion") -> Result<String, FieldRefusal> {
        guard osVersionLengths.contains(text.utf8.count), osVersionCharacters.containsAll(text) else {
            return .failure(FieldRefusal(field: field, code: .validationFailed,
                                         rule: "be 1 to 32 printable characters, e.g. 17.4.1"))
        }
        return .success(text)
    }

    /// An iOS bundle id or Android package name as an app reports it: 1 to 255 characters of letters, digits, `.`,
    /// `-` and `_`; refuses with `VALIDATION_BUNDLE_ID_FORMAT`.
    public static func bundleID(_ text: String, field: String = "bundleId") -> Result<String, FieldRefusal> {
        guard bundleIDLengths.contains(text.utf8.count), bundleIDCharacters.containsAll(text) else {
            return .failure(FieldRefusal(field: field, code: .bundleIDFormat,
                                         rule: "be a bundle id or package name: letters, digits, '.', '-' or '_'"))
        }
        return .success(text)
    }
}
