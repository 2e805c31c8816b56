#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

extension IPAddress {
    /// Whether this is an IPv6 address (an IPv4-mapped one counts as IPv4).
    var isIPv6: Bool { bytes.count == 16 }

    /// The canonical text (`inet_ntop`): `"198.51.100.7"`, `"2001:db8::1"`.
    var text: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = isIPv6 ? AF_INET6 : AF_INET
        let written = bytes.withUnsafeBytes { raw in
            buffer.withUnsafeMutableBufferPointer {
                inet_ntop(family, raw.baseAddress, $0.baseAddress, socklen_t($0.count))
            }
        }
        guard written != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The address with every bit after the first `prefixLength` set to zero (the network it lies in).
    func masked(toPrefix prefixLength: Int) -> IPAddress {
        var masked = bytes
        for index in masked.indices {
            let kept = min(8, max(0, prefixLength - index * 8))
            masked[index] &= kept == 0 ? 0 : UInt8(truncatingIfNeeded: 0xff << (8 - kept))
        }
        return IPAddress(bytes: masked)
    }
}
