import Crypto

/// The id that ties a response (`X-Request-Id`) to its log line.
enum RequestID {
    /// The caller's `X-Request-Id` when it is 8–64 characters of `[A-Za-z0-9._-]` (a load balancer's id),
    /// otherwise 16 fresh random bytes in base64url.
    static func make(incoming: String?) -> String {
        if let incoming, (8...64).contains(incoming.utf8.count),
           incoming.utf8.allSatisfy({ isAllowed($0) }) {
            return incoming
        }
        return Base64URL.encode(SecureRandom.bytes(16))
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
