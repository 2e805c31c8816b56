/// The two headers that authenticate a forwarded App Store notification (`POST /v1/app-store/assn/{surfaceId}`),
/// checked for shape: `x-ea-timestamp` (unix seconds, 1–12 ASCII digits) and `x-ea-signature` (`sha256=` and 64 hex
/// digits of HMAC-SHA256(secret, timestamp + "." + body), either case).
///
/// The signed message uses the timestamp header's text exactly as received, so a sender's own spelling (leading
/// zeros) signs and verifies alike.
public struct ForwardedSignature: Sendable, Equatable {
    /// The `x-ea-timestamp` header as received: the first part of the signed message.
    public let timestampText: String
    /// The same, as unix seconds.
    public let timestamp: Int64
    /// The 64 hex digits after `sha256=`, lowercased.
    public let hexDigest: String

    /// The most digits a timestamp may have (year 33658 in seconds; more is not a time).
    public static let maxTimestampDigits = 12

    /// The headers' values (nil when absent), or why they do not authenticate anything (a 401, nothing recorded).
    public static func parse(timestamp: String?, signature: String?) -> Result<ForwardedSignature, ForwardedRefusal> {
        guard let timestamp else { return .failure(.missingTimestamp) }
        let digits = Array(timestamp.utf8)
        guard (1...maxTimestampDigits).contains(digits.count), digits.allSatisfy(ASCII.isDigit),
              let seconds = Int64(timestamp) else { return .failure(.malformedTimestamp) }
        guard let signature else { return .failure(.missingSignature) }
        let prefix = "sha256="
        guard signature.hasPrefix(prefix) else { return .failure(.malformedSignature) }
        let hex = signature.dropFirst(prefix.count)
        guard hex.utf8.count == 64, hex.utf8.allSatisfy(Self.isHexDigit) else {
            return .failure(.malformedSignature)
        }
        return .success(ForwardedSignature(timestampText: timestamp, timestamp: seconds,
                                           hexDigest: hex.lowercased()))
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        ASCII.isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }

    /// The bytes the signature covers: the timestamp's text, `.`, and the body exactly as received.
    public func signedMessage(body: [UInt8]) -> [UInt8] {
        Array(timestampText.utf8) + [UInt8(ascii: ".")] + body
    }
}

/// Why a forwarded notification's headers do not authenticate it; each answers 401 and records nothing. The
/// `message` says which header and what is wrong, never a value.
public enum ForwardedRefusal: Error, Sendable, Equatable {
    case missingTimestamp
    case malformedTimestamp
    case missingSignature
    case malformedSignature
    /// The timestamp is older than the window allows (`SURFACE_TIMESTAMP_MAX_AGE_HOURS`).
    case timestampTooOld(maxAgeHours: Int)
    /// The timestamp is further ahead than the window allows (5 minutes).
    case timestampInFuture(maxAheadSeconds: Int)
    /// No secret of the surface that verifies now makes this signature.
    case signatureMismatch

    /// The sentence the 401 carries.
    public var message: String {
        switch self {
        case .missingTimestamp: return "header 'x-ea-timestamp' is required"
        case .malformedTimestamp: return "header 'x-ea-timestamp' must be unix seconds (1 to 12 digits)"
        case .missingSignature: return "header 'x-ea-signature' is required"
        case .malformedSignature: return "header 'x-ea-signature' must be sha256= and 64 hex digits"
        case .timestampTooOld(let hours):
            return "header 'x-ea-timestamp' is more than \(hours) hours in the past"
        case .timestampInFuture(let seconds):
            return "header 'x-ea-timestamp' is more than \(seconds) seconds in the future"
        case .signatureMismatch:
            return "header 'x-ea-signature' does not verify with the surface's forwarding secret"
        }
    }
}
