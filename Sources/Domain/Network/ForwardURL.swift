/// Where a store notification is forwarded: an absolute `http` or `https` URL, checked when it is set and again
/// before each send (issue 14, SSRF guard).
///
/// Shape: scheme `http`/`https` (any case), `//`, a host, an optional port 1–65535, then an optional path and query
/// of RFC 3986 characters (`%` only before two hex digits); no user info, no fragment, no spaces or non-ASCII
/// (international hosts in punycode), at most `maxLength` characters. The host is a name of letters, digits, `-`
/// and `_` labels (one trailing dot allowed), a bracketed IPv6 address without zone, or an IPv4 address.
///
/// Addresses: a literal host must pass `OutboundAddressRule` (public, or admitted by the allow-list); an IPv4
/// literal must be written as four decimal numbers — the other spellings libcurl and `inet_aton` accept (`127.1`,
/// `2130706433`, `0177.0.0.1`, `0x7f.1`) are refused, and so is a name whose last label is a number (`a.123`), which
/// URL parsers treat as an address. `localhost` and `*.localhost` stand for the loopback address. Names are
/// otherwise not resolved here: the worker checks every address a name resolves to when it connects.
public struct ForwardURL: Hashable, Sendable, CustomStringConvertible {
    /// The most characters a forward URL may have.
    public static let maxLength = 2048

    /// The URL as given.
    public let text: String
    /// `http` or `https`, lowercase.
    public let scheme: String
    /// The host in lowercase, without brackets or a trailing dot.
    public let host: String
    /// The port when the URL names one.
    public let port: Int?
    /// The address when the host is a literal (or `localhost`).
    public let address: NetworkAddress?

    public var description: String { text }

    /// Validates `text`; refuses with `VALIDATION_FORWARD_URL_FORMAT` (shape) or `VALIDATION_FORWARD_URL_ADDRESS`
    /// (a literal host the rules refuse, or an odd IPv4 spelling), naming `field`; the message never echoes the URL.
    public static func validate(_ text: String, allowed: NetworkAllowList, field: String = "forwardUrl")
        -> Result<ForwardURL, FieldRefusal>
    {
        let format = FieldRefusal(
            field: field, code: .forwardURLFormat,
            rule: "be an absolute http or https URL with a host, without user info or fragment, at most "
                + "\(maxLength) characters")
        let refusedAddress = FieldRefusal(
            field: field, code: .forwardURLAddress,
            rule: "name a public host (not loopback, private, link-local, shared, multicast or reserved; an IPv4 "
                + "address as four decimal numbers)")
        let bytes = Array(text.utf8)
        guard (1...maxLength).contains(bytes.count), bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return .failure(format)
        }
        guard let parts = split(bytes) else { return .failure(format) }
        let scheme = String(decoding: parts.scheme, as: UTF8.self).lowercased()
        guard scheme == "http" || scheme == "https", isURLTail(parts.rest) else { return .failure(format) }
        var port: Int?
        if let digits = parts.port {
            guard (1...5).contains(digits.count), digits.allSatisfy(isDigit),
                  let value = Int(String(decoding: digits, as: UTF8.self)), (1...65535).contains(value) else {
                return .failure(format)
            }
            port = value
        }
        let host: String
        let address: NetworkAddress?
        switch classifyHost(parts.host) {
        case .invalid:
            return .failure(format)
        case .oddIPv4, .numericName:
            return .failure(refusedAddress)
        case .name(let name):
            host = name
            address = name == "localhost" || name.hasSuffix(".localhost") ? NetworkAddress(ipv4: 0x7F00_0001) : nil
        case .address(let literal, let text):
            host = text
            address = literal
        }
        if let address, OutboundAddressRule.verdict(address, allowed: allowed) != .permitted {
            return .failure(refusedAddress)
        }
        return .success(ForwardURL(text: text, scheme: scheme, host: host, port: port, address: address))
    }

    private enum Host {
        case invalid, oddIPv4, numericName
        case name(String)
        case address(NetworkAddress, String)
    }

    /// Scheme, host, port digits (nil without `:`), and the rest (path and query, possibly empty).
    private static func split(_ bytes: [UInt8])
        -> (scheme: ArraySlice<UInt8>, host: ArraySlice<UInt8>, port: ArraySlice<UInt8>?, rest: ArraySlice<UInt8>)?
    {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
              bytes[colon...].starts(with: Array("://".utf8)) else { return nil }
        let afterSlashes = colon + 3
        let authorityEnd = bytes[afterSlashes...].firstIndex { "/?#".utf8.contains($0) } ?? bytes.endIndex
        let authority = bytes[afterSlashes..<authorityEnd]
        guard !authority.contains(UInt8(ascii: "@")) else { return nil }
        var host = authority
        var port: ArraySlice<UInt8>?
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            host = authority[authority.startIndex...close]
            let after = authority[(close + 1)...]
            if !after.isEmpty {
                guard after.first == UInt8(ascii: ":") else { return nil }
                port = after.dropFirst()
            }
        } else if let portColon = authority.firstIndex(of: UInt8(ascii: ":")) {
            host = authority[..<portColon]
            port = authority[(portColon + 1)...]
        }
        return (bytes[..<colon], host, port, bytes[authorityEnd...])
    }

    private static func classifyHost(_ bytes: ArraySlice<UInt8>) -> Host {
        guard !bytes.isEmpty else { return .invalid }
        if bytes.first == UInt8(ascii: "[") {
            let inner = String(decoding: bytes.dropFirst().dropLast(), as: UTF8.self)
            guard bytes.last == UInt8(ascii: "]"), inner.contains(":"),
                  inner.utf8.allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }),
                  let address = NetworkAddress.parseIPv6(inner) else { return .invalid }
            return .address(address, inner.lowercased())
        }
        var name = String(decoding: bytes, as: UTF8.self).lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard !name.isEmpty, name.utf8.count <= 253,
              labels.allSatisfy({ (1...63).contains($0.utf8.count) && $0.utf8.allSatisfy(isLabelCharacter) }) else {
            return .invalid
        }
        if let (address, spelling) = NetworkAddress.parseIPv4(name) {
            return spelling == .canonical ? .address(address, name) : .oddIPv4
        }
        // A last label that is a number (decimal, or 0x-hex) makes URL parsers read the host as an address.
        if let last = labels.last, last.utf8.allSatisfy(isDigit)
            || (last.hasPrefix("0x") && last.utf8.dropFirst(2).allSatisfy(isHexDigit)) {
            return .numericName
        }
        return .name(name)
    }

    /// Path (starting with `/`) and query: RFC 3986 `pchar`s, `/` and `?`, `%` only before two hex digits; no
    /// fragment.
    private static func isURLTail(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.isEmpty || bytes.first == UInt8(ascii: "/") || bytes.first == UInt8(ascii: "?") else {
            return false
        }
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return false
                }
                index += 3
                continue
            }
            guard isLabelCharacter(byte) || "._~!$&'()*+,;=:@/?".utf8.contains(byte) else { return false }
            index += 1
        }
        return true
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }

    /// Letters, digits, `-` and `_`.
    private static func isLabelCharacter(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D
            || byte == 0x5F
    }
}
