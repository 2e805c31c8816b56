/// The name of an event field that holds personal data; bound into every sealed value, so a value copied into
/// another field does not open.
///
/// Stable public values (they are part of the sealed bytes): rename one and old values stop opening.
public struct PersonalDataField: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A buyer's e-mail address.
    public static let email = PersonalDataField(rawValue: "email")
    /// A client IP address.
    public static let ipAddress = PersonalDataField(rawValue: "ip")

    public var description: String { rawValue }
}
