#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// An IPv4 or IPv6 address as network-order bytes (4 or 16); IPv4-mapped IPv6 addresses become IPv4.
struct IPAddress: Sendable, Hashable {
    let bytes: [UInt8]

    /// An address from its 4 (IPv4) or 16 (IPv6) network-order bytes, as they are.
    init(bytes: [UInt8]) {
        precondition(bytes.count == 4 || bytes.count == 16, "an IP address has 4 or 16 bytes")
        self.bytes = bytes
    }

    /// Parses a textual address (`"10.1.2.3"`, `"2001:db8::1"`); nil when it is not one.
    init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let all = withUnsafeBytes(of: &v6) { Array($0) }
        let mappedPrefix: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]
        bytes = Array(all[0..<12]) == mappedPrefix ? Array(all[12...]) : all
    }

    /// Whether the first `prefixLength` bits equal those of `other` (same family required).
    func sharesPrefix(with other: IPAddress, length prefixLength: Int) -> Bool {
        guard bytes.count == other.bytes.count else { return false }
        var remaining = prefixLength
        for index in bytes.indices where remaining > 0 {
            let bits = min(remaining, 8)
            let mask = UInt8(truncatingIfNeeded: 0xff << (8 - bits))
            if bytes[index] & mask != other.bytes[index] & mask { return false }
            remaining -= bits
        }
        return true
    }
}
