import Crypto
import Synchronization

/// The id that ties a response (`X-Request-Id`) to its log line.
enum RequestID {
    /// 6 random bytes drawn once per process (8 base64url characters): ids of two processes never collide.
    private static let processPrefix = Array(Base64URL.encode(SecureRandom.bytes(6)).utf8)
    private static let counter = Atomic<UInt64>(0)

    /// The caller's `X-Request-Id` when it is 8–64 characters of `[A-Za-z0-9._-]` (a load balancer's id),
    /// otherwise this process's prefix and a counter in 14 hex digits: 22 characters, unique per process run.
    /// (Not secret: a request id only correlates a response with its log line; drawing from the CSPRNG on
    /// every request cost about 5% of a trivial request.)
    static func make(incoming: String?) -> String {
        if let incoming, (8...64).contains(incoming.utf8.count),
           incoming.utf8.allSatisfy({ isAllowed($0) }) {
            return incoming
        }
        let value = counter.add(1, ordering: .relaxed).newValue
        return String(unsafeUninitializedCapacity: processPrefix.count + 14) { text in
            var end = 0
            for byte in processPrefix {
                text[end] = byte
                end += 1
            }
            var rest = value
            for position in (end..<end + 14).reversed() {
                let digit = UInt8(truncatingIfNeeded: rest & 0xF)
                text[position] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
                rest >>= 4
            }
            return end + 14
        }
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
