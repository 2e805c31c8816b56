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
        if !isIPv6 { return ipv4Text }
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

    /// Dotted decimal of the four bytes, as `inet_ntop` writes it, without its buffers (every rate-limited request
    /// keys its client by this text).
    private var ipv4Text: String {
        String(unsafeUninitializedCapacity: 15) { output in
            var count = 0
            for (position, byte) in bytes.enumerated() {
                if position > 0 { output[count] = UInt8(ascii: "."); count += 1 }
                if byte >= 100 { output[count] = UInt8(ascii: "0") + byte / 100; count += 1 }
                if byte >= 10 { output[count] = UInt8(ascii: "0") + byte / 10 % 10; count += 1 }
                output[count] = UInt8(ascii: "0") + byte % 10
                count += 1
            }
            return count
        }
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
