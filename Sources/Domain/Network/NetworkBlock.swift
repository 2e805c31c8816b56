/// A CIDR block, `10.0.0.0/8` or `fd00::/8`: an address and a prefix length. A bare address is a block of one.
public struct NetworkBlock: Hashable, Sendable, CustomStringConvertible {
    public let network: NetworkAddress
    /// 0–32 for IPv4, 0–128 for IPv6.
    public let prefixLength: Int

    /// `network/prefixLength` with the address canonical (dotted decimal IPv4, IPv6 text) and no bits set past
    /// the prefix (`10.0.0.1/8` is refused as a likely typo); nil otherwise.
    public static func parse(_ text: String) -> NetworkBlock? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let address = NetworkAddress.parseCanonical(String(parts[0])) else {
            return nil
        }
        let maximum = address.bytes.count * 8
        var length = maximum
        if parts.count == 2 {
            guard (1...3).contains(parts[1].utf8.count), parts[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let parsed = Int(parts[1]), parsed <= maximum else { return nil }
            length = parsed
        }
        let zeroed = NetworkAddress(bytes: address.bytes.enumerated().map { index, byte in
            let keep = max(0, min(8, length - index * 8))
            return keep == 0 ? 0 : byte & UInt8(truncatingIfNeeded: 0xFF << (8 - keep))
        })!
        guard zeroed == address else { return nil }
        return NetworkBlock(network: address, prefixLength: length)
    }

    /// Whether `address` lies in the block (same family only).
    public func contains(_ address: NetworkAddress) -> Bool {
        address.sharesPrefix(with: network, length: prefixLength)
    }

    public var description: String { "\(network)/\(prefixLength)" }
}
