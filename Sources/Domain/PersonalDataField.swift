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
    /// The first name a lead form carried (`POST /v1/m/lead`).
    public static let firstName = PersonalDataField(rawValue: "firstName")
    /// The free text a lead form carried (`POST /v1/m/lead`).
    public static let message = PersonalDataField(rawValue: "message")
    /// The identity hashes of a signup lead (`AppLeadReceived.identity`).
    public static let identity = PersonalDataField(rawValue: "identity")

    public var description: String { rawValue }
}
