/// An IPv4 or IPv6 address as network-order bytes: 4 for IPv4, 16 for IPv6 (an IPv4-mapped IPv6 address stays
/// IPv6, so the rules can refuse that spelling).
///
/// Pure: parses and prints text, nothing else. `OutboundAddressRule` says which addresses a forward may reach.
public struct NetworkAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 or 16 bytes, network order.
    public let bytes: [UInt8]

    /// An address from its 4 (IPv4) or 16 (IPv6) network-order bytes; nil for any other count.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// An IPv4 address from its 32-bit value (`0x7F000001` is `127.0.0.1`).
    public init(ipv4 value: UInt32) {
        bytes = [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
                 UInt8(truncatingIfNeeded: value)]
    }

    /// True for an IPv4 address.
    public var isIPv4: Bool { bytes.count == 4 }

    /// The 32-bit value of an IPv4 address; nil for IPv6.
    public var ipv4Value: UInt32? {
        guard isIPv4 else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The IPv4 address in the last 32 bits of an IPv6 address (any prefix; the caller decides which prefixes
    /// embed one); nil for IPv4.
    public var embeddedIPv4: NetworkAddress? {
        isIPv4 ? nil : NetworkAddress(bytes: Array(bytes[12...]))
    }

    /// Whether the first `length` bits equal those of `other`; false across families.
    public func sharesPrefix(with other: NetworkAddress, length: Int) -> Bool {
        guard bytes.count == other.bytes.count, length >= 0, length <= bytes.count * 8 else { return false }
        var remaining = length
        for index in bytes.indices where remaining > 0 {
            let bits = min(remaining, 8)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if bytes[index] & mask != other.bytes[index] & mask { return false }
            remaining -= bits
        }
        return true
    }

    /// Dotted decimal for IPv4; RFC 5952 text for IPv6 (lowercase, longest zero run as `::`, mapped IPv4 as
    /// `::ffff:a.b.c.d`).
    public var description: String {
        if isIPv4 { return bytes.map(String.init).joined(separator: ".") }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return "::ffff:" + bytes[12...].map(String.init).joined(separator: ".")
        }
        let groups = (0..<8).map { Int(bytes[$0 * 2]) << 8 | Int(bytes[$0 * 2 + 1]) }
        var best = (start: -1, length: 0)
        var index = 0
        while index < 8 {
            guard groups[index] == 0 else {
                index += 1
                continue
            }
            var end = index
            while end < 8 && groups[end] == 0 { end += 1 }
            if end - index > best.length && end - index >= 2 { best = (index, end - index) }
            index = end
        }
        func hex(_ range: Range<Int>) -> String {
            groups[range].map { String($0, radix: 16) }.joined(separator: ":")
        }
        guard best.start >= 0 else { return hex(0..<8) }
        return hex(0..<best.start) + "::" + hex((best.start + best.length)..<8)
    }
}
