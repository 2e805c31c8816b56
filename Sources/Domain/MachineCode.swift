/// A stable, public machine code carried in error bodies as `code`; clients branch on these, never on messages.
public struct MachineCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// No route has this path.
    public static let notFound = MachineCode(rawValue: "NOT_FOUND")
    /// The path exists but not for this method; the `Allow` header lists the methods it takes.
    public static let methodNotAllowed = MachineCode(rawValue: "METHOD_NOT_ALLOWED")
    /// The body is larger than the endpoint accepts.
    public static let payloadTooLarge = MachineCode(rawValue: "PAYLOAD_TOO_LARGE")
    /// The body is not valid JSON, or not the JSON object the endpoint expects.
    public static let invalidJSON = MachineCode(rawValue: "INVALID_JSON")
    /// A field is missing or has a value the endpoint does not take; the message names the field.
    public static let validationFailed = MachineCode(rawValue: "VALIDATION_FAILED")
    /// Something unexpected failed; the log holds the detail under the request id.
    public static let internalError = MachineCode(rawValue: "INTERNAL_ERROR")
    /// Over a rate limit; retry after `Retry-After` seconds.
    public static let rateLimited = MachineCode(rawValue: "RATE_LIMITED")
    /// A dependency (Postgres, Redis) does not answer; retry after `Retry-After` seconds.
    public static let unavailable = MachineCode(rawValue: "SERVICE_UNAVAILABLE")
}
