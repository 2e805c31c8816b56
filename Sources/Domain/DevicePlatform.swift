import Foundation

/// The phone platform a fingerprint or a resolve-by-fingerprint call comes from.
public enum DevicePlatform: String, Hashable, Sendable, CaseIterable {
    case ios
    case android

    /// Parses `ios` or `android` (exact, lowercase); refuses with `VALIDATION_FAILED` naming `field`.
    public static func parse(_ text: String, field: String = "platform") -> Result<DevicePlatform, FieldRefusal> {
        guard let platform = DevicePlatform(rawValue: text) else {
            return .failure(FieldRefusal(field: field, code: .validationFailed, rule: "be ios or android"))
        }
        return .success(platform)
    }

    /// The platform a browser's `User-Agent` names: `Android` → android; `iPhone`, `iPad`, `iPod` → ios; else nil
    /// (a desktop browser, or an iPad that presents itself as a Mac).
    public init?(userAgent: String) {
        if userAgent.contains("Android") {
            self = .android
        } else if userAgent.contains("iPhone") || userAgent.contains("iPad") || userAgent.contains("iPod") {
            self = .ios
        } else {
            return nil
        }
    }
}
