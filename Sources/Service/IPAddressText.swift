import Foundation

/// Checks the text form of IP addresses and CIDR ranges with `inet_pton`.
enum IPAddressText {
    static func isIPv4(_ text: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, text, &address) == 1
    }

    static func isIPv6(_ text: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, text, &address) == 1
    }

    /// `10.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`.
    static func isAddressOrCIDR(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return false }
        let address = String(parts[0])
        let maxPrefix: Int
        if isIPv4(address) { maxPrefix = 32 } else if isIPv6(address) { maxPrefix = 128 } else { return false }
        guard parts.count == 2 else { return true }
        guard let prefix = Int(parts[1]), (0...maxPrefix).contains(prefix) else { return false }
        return true
    }
}
