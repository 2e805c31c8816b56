/// What kind of network an address belongs to, for the outbound rules of forwards (issue 14, SSRF guard).
///
/// Only `.public` may be reached without an allow-list entry. Sources: the IANA IPv4 and IPv6 Special-Purpose
/// Address Registries (RFC 6890 and successors).
public enum AddressClass: String, Sendable, Equatable, CaseIterable {
    /// Globally routable.
    case `public`
    /// 127.0.0.0/8, ::1.
    case loopback
    /// 10/8, 172.16/12, 192.168/16, fc00::/7 (unique local), fec0::/10 (old site-local), 64:ff9b:1::/48
    /// (local-use NAT64).
    case `private`
    /// 169.254/16, fe80::/10.
    case linkLocal
    /// 100.64/10, carrier-grade NAT (RFC 6598).
    case sharedAddressSpace
    /// 224/4, ff00::/8.
    case multicast
    /// 0.0.0.0/8 ("this network"), ::.
    case unspecified
    /// 255.255.255.255.
    case broadcast
    /// Documentation, benchmarking, IETF protocol assignments, 6to4 relays, 240/4, discard-only, 6to4, Teredo,
    /// ORCHIDs and other special-purpose ranges; IPv6 outside 2000::/3.
    case reserved
    /// ::ffff:0:0/96: an IPv4 address in IPv6 clothing (refused whatever it wraps).
    case ipv4Mapped
    /// ::/96 (deprecated IPv4-compatible addresses, apart from :: and ::1).
    case ipv4Compatible
}

extension NetworkAddress {
    /// The class of this address. NAT64 `64:ff9b::/96` takes the class of the IPv4 address it wraps.
    public var addressClass: AddressClass {
        if let v4 = ipv4Value { return Self.classifyIPv4(v4) }
        for (prefix, length, addressClass) in Self.ipv6Table where sharesPrefix(with: prefix, length: length) {
            if addressClass == .public, let wrapped = embeddedIPv4 { return wrapped.addressClass }
            return addressClass
        }
        // Outside 2000::/3 nothing is allocated for global unicast.
        return sharesPrefix(with: Self.globalUnicast, length: 3) ? .public : .reserved
    }

    private static let globalUnicast = NetworkAddress.parseIPv6("2000::")!

    private static func classifyIPv4(_ value: UInt32) -> AddressClass {
        for (network, length, addressClass) in ipv4Table {
            let mask: UInt32 = length == 0 ? 0 : ~UInt32(0) << (32 - length)
            if value & mask == network { return addressClass }
        }
        return .public
    }

    /// (network, prefix length, class), most specific first where ranges nest.
    private static let ipv4Table: [(UInt32, Int, AddressClass)] = [
        (0xFFFF_FFFF, 32, .broadcast),
        (0x0000_0000, 8, .unspecified),
        (0x0A00_0000, 8, .private),
        (0x6440_0000, 10, .sharedAddressSpace),
        (0x7F00_0000, 8, .loopback),
        (0xA9FE_0000, 16, .linkLocal),
        (0xAC10_0000, 12, .private),
        (0xC000_0000, 24, .reserved),   // 192.0.0.0/24 IETF protocol assignments
        (0xC000_0200, 24, .reserved),   // 192.0.2.0/24 TEST-NET-1
        (0xC058_6300, 24, .reserved),   // 192.88.99.0/24 6to4 relay anycast
        (0xC0A8_0000, 16, .private),
        (0xC612_0000, 15, .reserved),   // 198.18.0.0/15 benchmarking
        (0xC633_6400, 24, .reserved),   // 198.51.100.0/24 TEST-NET-2
        (0xCB00_7100, 24, .reserved),   // 203.0.113.0/24 TEST-NET-3
        (0xE000_0000, 4, .multicast),
        (0xF000_0000, 4, .reserved),    // 240.0.0.0/4 reserved (broadcast matched first)
    ]

    /// (prefix, length, class), most specific first. A `.public` row marks a prefix that wraps an IPv4 address
    /// (NAT64): the wrapped address decides.
    private static let ipv6Table: [(NetworkAddress, Int, AddressClass)] = {
        let rows: [(String, Int, AddressClass)] = [
            ("::", 128, .unspecified),
            ("::1", 128, .loopback),
            ("::ffff:0:0", 96, .ipv4Mapped),
            ("::", 96, .ipv4Compatible),
            ("64:ff9b::", 96, .public),
            ("64:ff9b:1::", 48, .private),
            ("100::", 64, .reserved),        // discard-only
            ("2001::", 32, .reserved),       // Teredo (wraps an IPv4 address)
            ("2001:db8::", 32, .reserved),   // documentation
            ("2001::", 23, .reserved),       // IETF protocol assignments, ORCHIDs, benchmarking
            ("2002::", 16, .reserved),       // 6to4 (wraps an IPv4 address)
            ("3fff::", 20, .reserved),       // documentation (RFC 9637)
            ("5f00::", 16, .reserved),       // segment routing SIDs (RFC 9602)
            ("fc00::", 7, .private),
            ("fe80::", 10, .linkLocal),
            ("fec0::", 10, .private),
            ("ff00::", 8, .multicast),
            ("::", 8, .reserved),            // the rest of ::/8 (reserved by the IETF)
        ]
        return rows.map { row in (NetworkAddress.parseIPv6(row.0)!, row.1, row.2) }
    }()
}
