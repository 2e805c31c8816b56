/// Why a store notification was not accepted; nothing is recorded or forwarded for either.
public enum IntakeFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The body is not what the store sends (400).
    case malformed(String)
    /// The signature, token, secret or app does not check out (401).
    case unauthorized(String)

    public var description: String {
        switch self {
        case .malformed(let reason), .unauthorized(let reason): return reason
        }
    }
}
