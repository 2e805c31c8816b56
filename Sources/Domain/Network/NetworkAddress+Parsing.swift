extension NetworkAddress {
    /// How a URL host spelled an IPv4 address.
    public enum IPv4Spelling: Sendable, Equatable {
        /// Four decimal numbers 0–255 without leading zeros: `93.184.216.34`.
        case canonical
        /// Any other form `inet_aton` and libcurl's URL parser accept: fewer parts (`127.1`), decimal
        /// (`2130706433`), octal (`0177.0.0.1`) or hex (`0x7f.1`) parts.
        case odd
    }

    /// Parses `text` the way glibc's `inet_aton` does, which is what libcurl's URL parser and the resolver accept
    /// for a numeric host: one to four parts separated by `.`, each decimal, octal (leading `0`) or hex (`0x`, digits
    /// optional); every part but the last is one byte, the last fills the remaining bytes. Nil when `text` is not
    /// such a number (then it is a host name). No trailing dot, no spaces: callers strip what they accept.
    public static func parseIPv4(_ text: String) -> (address: NetworkAddress, spelling: IPv4Spelling)? {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var values: [UInt64] = []
        var canonical = parts.count == 4
        for part in parts {
            guard let (value, decimal) = parseNumber(Array(part)) else { return nil }
            values.append(value)
            if !decimal || value > 255 || (part.count > 1 && part.first == UInt8(ascii: "0")) { canonical = false }
        }
        var result: UInt64 = 0
        for value in values.dropLast() {
            guard value <= 0xFF else { return nil }
            result = result << 8 | value
        }
        let lastBits = UInt64(8 * (5 - parts.count))
        guard let last = values.last, last < (1 << lastBits) else { return nil }
        result = result << lastBits | last
        return (NetworkAddress(ipv4: UInt32(result)), canonical ? .canonical : .odd)
    }

    /// One part of an `inet_aton` number: its value (at most 32 bits) and whether it was written in decimal.
    private static func parseNumber(_ digits: [UInt8]) -> (UInt64, Bool)? {
        guard let first = digits.first, isDigit(first) else { return nil }
        var rest = digits[...]
        var radix: UInt64 = 10
        if first == UInt8(ascii: "0") && digits.count > 1 {
            rest = rest.dropFirst()
            radix = 8
            if let next = rest.first, next == UInt8(ascii: "x") || next == UInt8(ascii: "X") {
                rest = rest.dropFirst()
                radix = 16
            }
        }
        var value: UInt64 = 0
        for byte in rest {
            guard let digit = hexValue(byte), digit < radix else { return nil }
            value = value * radix + digit
            guard value <= 0xFFFF_FFFF else { return nil }
        }
        return (value, radix == 10)
    }

    /// Parses RFC 4291 IPv6 text (`::1`, `2001:db8::1`, `::ffff:127.0.0.1`) without brackets or a zone id; the
    /// embedded IPv4 form must be four canonical decimal numbers, as `inet_pton` wants.
    public static func parseIPv6(_ text: String) -> NetworkAddress? {
        var text = Substring(text)
        var tail: [UInt8] = []
        if let lastColon = text.lastIndex(of: ":"), text[text.index(after: lastColon)...].contains(".") {
            let dotted = String(text[text.index(after: lastColon)...])
            guard let (v4, spelling) = parseIPv4(dotted), spelling == .canonical else { return nil }
            tail = v4.bytes
            // Keep the colon so "::a.b.c.d" and "x::a.b.c.d" still split into groups below.
            text = text[...lastColon] + "0:0"
        }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ half: String) -> [UInt16]? {
            guard !half.isEmpty else { return [] }
            var result: [UInt16] = []
            for group in half.split(separator: ":", omittingEmptySubsequences: false) {
                guard (1...4).contains(group.utf8.count), let value = UInt16(group, radix: 16),
                      group.utf8.allSatisfy({ hexValue($0) != nil }) else { return nil }
                result.append(value)
            }
            return result
        }
        guard let head = groups(halves[0]) else { return nil }
        var all: [UInt16]
        if halves.count == 2 {
            guard let back = groups(halves[1]), head.count + back.count <= 7 else { return nil }
            all = head + Array(repeating: 0, count: 8 - head.count - back.count) + back
        } else {
            guard head.count == 8 else { return nil }
            all = head
        }
        var bytes = all.flatMap { [UInt8($0 >> 8), UInt8(truncatingIfNeeded: $0)] }
        if !tail.isEmpty { bytes.replaceSubrange(12..<16, with: tail) }
        return NetworkAddress(bytes: bytes)
    }

    /// Either family: canonical dotted IPv4 or IPv6 text (no odd IPv4 spellings, no brackets); for configuration.
    public static func parseCanonical(_ text: String) -> NetworkAddress? {
        if let (v4, spelling) = parseIPv4(text) { return spelling == .canonical ? v4 : nil }
        return text.contains(":") ? parseIPv6(text) : nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func hexValue(_ byte: UInt8) -> UInt64? {
        switch byte {
        case 0x30...0x39: UInt64(byte - 0x30)
        case 0x41...0x46: UInt64(byte - 0x41 + 10)
        case 0x61...0x66: UInt64(byte - 0x61 + 10)
        default: nil
        }
    }
}
