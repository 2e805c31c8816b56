/// Which client addresses share one per-client budget: an IPv4 client counts by its address, an IPv6 client by its
/// network prefix (its first `ipv6PrefixLength` bits, /64 unless configured).
///
/// One IPv6 subscriber is normally given a whole /64 (often a /56 or /48) and may use any address in it, so keying
/// IPv6 clients by address would give each of them 2^64 budgets. An IPv4-mapped IPv6 address (`::ffff:198.51.100.7`,
/// what a dual-stack socket reports for an IPv4 peer) counts as the IPv4 address. Every per-client limit — the API's
/// rate limits and failure budgets, and the server's connections per address — takes its key from `key(for:)`.
public struct ClientAddressGrouping: Sendable, Equatable {
    /// /64: the smallest network an IPv6 subscriber is normally given (RFC 6177).
    public static let defaultIPv6PrefixLength = 64

    /// How many leading bits of an IPv6 address identify a client (1–128; 128 = each address on its own).
    public let ipv6PrefixLength: Int

    /// Groups IPv6 clients by their first `ipv6PrefixLength` bits (1–128).
    public init(ipv6PrefixLength: Int = ClientAddressGrouping.defaultIPv6PrefixLength) {
        precondition((1...128).contains(ipv6PrefixLength), "an IPv6 prefix length is 1–128")
        self.ipv6PrefixLength = ipv6PrefixLength
    }

    /// The key a client address counts under: `"198.51.100.7"` for IPv4 (also when written IPv4-mapped),
    /// `"2001:db8:1:2::/64"` for any IPv6 address in that /64. Text that is not an IP address is its own key.
    public func key(for address: String) -> String {
        guard let parsed = IPAddress(address) else { return address }
        return key(for: parsed)
    }

    /// The key of a parsed address (see `key(for:)` on text).
    func key(for address: IPAddress) -> String {
        guard address.isIPv6 else { return address.text }
        return "\(address.masked(toPrefix: ipv6PrefixLength).text)/\(ipv6PrefixLength)"
    }
}
