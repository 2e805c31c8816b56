import Domain
import Foundation
import Glibc

/// `forward-url`: the bytes as a forward URL, checked when it is set (`AppForwardURL.validate`, the grammar) and
/// before every send (`ForwardURL.validate`) with and without an allow-list; each NUL-separated field also as an
/// address (`NetworkAddress.parseIPv4`/`parseIPv6`, against glibc's `inet_aton`/`inet_pton`) and as
/// `FORWARD_ALLOWED_NETWORKS` (`NetworkAllowList`); and addresses for `OutboundAddressRule` — from a hash of the
/// input, from its last bytes, and one inside a special range the input picks — with an IPv4 one spelled in a way
/// `inet_aton` reads.
///
/// Properties:
/// - a URL accepted at send time is the input, printable ASCII within the length, `http`/`https`, a lowercase host
///   without a trailing dot, a port in 1–65535; a literal host is the canonical text of its address, which the rule
///   permits; a host that is a name is no number in any spelling; rebuilt from its parts (lowercase scheme, host or
///   the address's canonical text, port, the rest as given) it is accepted as the same URL, and rebuilding that is a
///   fixed point; an allow-list only ever admits more, and what it admits is an address refusal it covers;
/// - a URL accepted when set (the grammar) names a host, never an IP address in any spelling (only `localhost` stands
///   for one), and is accepted at send time too, apart from that address;
/// - whatever `inet_aton` reads as an IPv4 address `parseIPv4` reads as the same one, and a URL with it as the host
///   is refused unless it is four decimal numbers of an address the rule permits; `parseIPv6` reads exactly what
///   `inet_pton` does; a canonical spelling is the address's own text;
/// - the rule refuses loopback, private, link-local, shared (CGNAT), multicast, unspecified, broadcast and the other
///   special ranges of the IANA registries, and IPv4-mapped IPv6 whatever it wraps; it permits everything else of
///   IPv4 and of 2000::/3; NAT64 is judged by the IPv4 address it wraps; odd spellings (decimal, octal, hex, short)
///   of any address are refused in a URL even when the allow-list admits the address;
/// - an allow-list that parses prints and parses to itself, each block holds its own network, an IPv4 block admits
///   the mapped form of what it admits; one that does not parse is refused with `VALIDATION_NETWORK_FORMAT`.
enum ForwardURLFuzz {
    static let target = FuzzTarget(name: "forward-url", maxLength: 2600, run: run)

    static let everything = list("0.0.0.0/0, ::/0")
    static let narrow = list("127.0.0.2/32, 10.1.0.0/16, fd00:1::/32")

    static func list(_ text: String) -> NetworkAllowList {
        guard case .success(let list) = NetworkAllowList.parse(text) else { fatalError("'\(text)' does not parse") }
        return list
    }

    static func run(_ bytes: [UInt8]) {
        let whole = text(bytes)
        var allowLists = [NetworkAllowList.none, narrow, everything]
        // The first four fields: more only repeat the same checks (and every check allocates, slowly under ASan).
        for field in fields(bytes).prefix(4) {
            let value = text(field)
            if let custom = checkAllowList(value, bytes) { allowLists.append(custom) }
            checkAddressText(value)
            checkURL(value, allowLists: allowLists)
        }
        if bytes.contains(0) { checkURL(whole, allowLists: allowLists) }
        // Addresses: from a hash of the whole input (any change moves them anywhere), from its last bytes (which the
        // fuzzer steers), and one inside a special range the input picks, so every range is probed in every run.
        var random = Mixer(bytes)
        let tail = Array(bytes.suffix(20))
        let choice = Int(random.next() & 0xFFFF)
        let v4 = NetworkAddress(ipv4: UInt32(truncatingIfNeeded: random.next()))
        let v6 = NetworkAddress(bytes: (0..<2).flatMap { _ in withUnsafeBytes(of: random.next()) { Array($0) } })!
        for address in [v4, v6, NetworkAddress(bytes: material(tail, count: 4))!,
                        NetworkAddress(bytes: material(tail, count: 16, offset: 4))!] {
            checkRule(address)
        }
        checkSpecialRanges(choice: choice, bits: random.next())
        checkSpellings(choice % 2 == 0 ? v4 : NetworkAddress(bytes: material(tail, count: 4))!, choice: choice >> 1)
    }

    /// SplitMix64 seeded with the input's FNV-1a hash: reproducible material for one input.
    struct Mixer {
        var state: UInt64

        init(_ bytes: [UInt8]) {
            state = bytes.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
        }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    // MARK: - URLs

    static func checkURL(_ url: String, allowLists: [NetworkAllowList]) {
        let strict = ForwardURL.validate(url, allowed: .none)
        // The parts of an accepted URL are checked under the first list that accepts it (they are equal under all).
        var checked = false
        for allowed in allowLists {
            let result = allowed == .none ? strict : ForwardURL.validate(url, allowed: allowed)
            switch (strict, result) {
            case (.success(let plain), .success(let admitted)):
                check(plain == admitted, "'\(url)': the allow-list changed the parts")
            case (.success, .failure(let refusal)):
                check(false, "'\(url)': accepted without an allow-list, refused with one: \(refusal.code)")
            case (.failure(let refusal), .success(let admitted)):
                check(refusal.code == .forwardURLAddress && admitted.address.map(allowed.admits) == true,
                      "'\(url)': the allow-list admits what it does not cover (\(refusal.code))")
            case (.failure, .failure):
                break
            }
            switch result {
            case .success(let valid) where !checked:
                checkAccepted(url, valid, allowed: allowed)
                checked = true
            case .success:
                break
            case .failure(let refusal):
                checkRefusal(url, refusal)
            }
        }
        checkSetTime(url)
    }

    static func checkAccepted(_ url: String, _ valid: ForwardURL, allowed: NetworkAllowList) {
        let bytes = Array(url.utf8)
        check(valid.text == url, "'\(url)' kept as '\(valid.text)'")
        check((1...ForwardURL.maxLength).contains(bytes.count) && bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F },
              "'\(url)': accepted with \(bytes.count) bytes or a byte outside printable ASCII")
        check(valid.scheme == "http" || valid.scheme == "https", "'\(url)': scheme \(valid.scheme)")
        check(url.lowercased().hasPrefix(valid.scheme + "://"), "'\(url)': scheme \(valid.scheme) is not its own")
        check(!valid.host.isEmpty && valid.host == valid.host.lowercased() && !valid.host.hasSuffix("."),
              "'\(url)': host '\(valid.host)'")
        check(valid.port.map { (1...65535).contains($0) } ?? true, "'\(url)': port \(valid.port ?? -1)")
        check(!url.contains("#") && !authority(url).contains("@"), "'\(url)': a fragment or user info accepted")
        if let address = valid.address {
            check(OutboundAddressRule.verdict(address, allowed: allowed) == .permitted,
                  "'\(url)': \(address) accepted although the rule refuses it")
            let isLocalhost = valid.host == "localhost" || valid.host.hasSuffix(".localhost")
            check(isLocalhost || valid.host.contains(":") == !address.isIPv4, "'\(url)': host and family disagree")
            if address.isIPv4 && !isLocalhost {
                check(valid.host == address.description, "'\(url)': IPv4 host '\(valid.host)' is not \(address)")
            } else if !address.isIPv4 {
                check(NetworkAddress.parseIPv6(valid.host) == address, "'\(url)': host '\(valid.host)' ≠ \(address)")
            }
        } else {
            check(NetworkAddress.parseIPv4(valid.host) == nil, "'\(url)': host '\(valid.host)' is a number")
            let last = valid.host.split(separator: ".").last.map(String.init) ?? ""
            let hexNumber = last.hasPrefix("0x") && last.dropFirst(2).allSatisfy(\.isHexDigit)
            check(!last.utf8.allSatisfy(isDigit) && !hexNumber, "'\(url)': a name ending in a number")
            check(!valid.host.contains(":"), "'\(url)': host '\(valid.host)' holds a colon")
        }
        // Rebuilt from its parts, it is the same URL; rebuilding that changes nothing more.
        let rebuilt = rebuild(url, valid)
        guard case .success(let again) = ForwardURL.validate(rebuilt, allowed: allowed) else {
            return check(false, "'\(url)' rebuilt as '\(rebuilt)' is refused")
        }
        check(again.scheme == valid.scheme && again.port == valid.port && again.address == valid.address
                  && (valid.address != nil || again.host == valid.host),
              "'\(url)' rebuilt as '\(rebuilt)' reads otherwise")
        check(rebuild(rebuilt, again) == rebuilt, "'\(rebuilt)' is not a fixed point")
    }

    static func checkRefusal(_ url: String, _ refusal: FieldRefusal) {
        check(refusal.code == .forwardURLFormat || refusal.code == .forwardURLAddress, "'\(url)': \(refusal.code)")
        check(refusal.field == "forwardUrl", "'\(url)': refusal names '\(refusal.field)'")
        check(url.utf8.count < 8 || !refusal.message.contains(url), "'\(url)': the message echoes the URL")
    }

    /// A URL the grammar takes names a host, never an address, and is a URL the send-time check takes too.
    static func checkSetTime(_ url: String) {
        let grammar = AppForwardURL.validate(url)
        let sendTime = ForwardURL.validate(url, allowed: everything)
        guard case .success(let accepted) = grammar else { return }
        check(accepted.text == url && url.utf8.count <= AppForwardURL.maxLength, "'\(url)': kept otherwise")
        switch sendTime {
        case .success(let valid):
            check(valid.address == nil || valid.host == "localhost" || valid.host.hasSuffix(".localhost"),
                  "'\(url)': the grammar takes the IP-literal host '\(valid.host)'")
        case .failure(let refusal):
            check(false, "'\(url)': taken when set, refused at every send (\(refusal.code))")
        }
    }

    /// The authority of a URL: after `://`, up to the first `/`, `?` or `#`.
    static func authority(_ url: String) -> Substring {
        guard let range = url.range(of: "://") else { return "" }
        let rest = url[range.upperBound...]
        return rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    }

    /// `scheme://host[:port]rest` from the parts: the address's canonical text for a literal host.
    static func rebuild(_ url: String, _ valid: ForwardURL) -> String {
        let isLocalhost = valid.host == "localhost" || valid.host.hasSuffix(".localhost")
        var host = valid.host
        if let address = valid.address, !isLocalhost {
            host = address.isIPv4 ? address.description : "[\(address.description)]"
        }
        let start = url.range(of: "://")!.upperBound
        let rest = url[url.index(start, offsetBy: authority(url).count)...]
        return valid.scheme + "://" + host + (valid.port.map { ":\($0)" } ?? "") + rest
    }

    // MARK: - Address text against glibc

    static func checkAddressText(_ value: String) {
        let hasSpace = value.utf8.contains { $0 <= 0x20 || $0 == 0x7F }
        var v4 = in_addr()
        if !hasSpace, value.utf8.count < 256, inet_aton(value, &v4) != 0 {
            let glibc = NetworkAddress(ipv4: UInt32(bigEndian: v4.s_addr))
            guard let (address, spelling) = NetworkAddress.parseIPv4(value) else {
                return check(false, "inet_aton reads '\(value)' as \(glibc), parseIPv4 as no address")
            }
            check(address == glibc, "inet_aton reads '\(value)' as \(glibc), parseIPv4 as \(address)")
            check((spelling == .canonical) == (value == address.description),
                  "'\(value)' is \(spelling), the address prints as \(address)")
            for allowed in [NetworkAllowList.none, everything] {
                let result = ForwardURL.validate("https://\(value)/", allowed: allowed)
                let permitted = OutboundAddressRule.verdict(address, allowed: allowed) == .permitted
                if case .success(let valid) = result {
                    check(spelling == .canonical && permitted && valid.address == address,
                          "'\(value)' (\(address)) accepted as a URL host")
                } else if case .failure(let refusal) = result {
                    check(refusal.code == .forwardURLAddress, "'\(value)' refused as \(refusal.code)")
                }
            }
        } else if let (address, spelling) = NetworkAddress.parseIPv4(value), spelling == .canonical {
            check(false, "'\(value)': a canonical \(address) that inet_aton does not read")
        }
        guard !value.isEmpty, value.utf8.count < 256,
              value.utf8.allSatisfy({ isHexDigitByte($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
        else { return }
        var v6 = in6_addr()
        let glibc = inet_pton(AF_INET6, value, &v6) == 1
            ? NetworkAddress(bytes: withUnsafeBytes(of: &v6) { Array($0) }) : nil
        let parsed = NetworkAddress.parseIPv6(value)
        check(parsed == glibc, "inet_pton reads '\(value)' as \(glibc.map(\.description) ?? "none"), parseIPv6 as "
                  + (parsed.map(\.description) ?? "none"))
        if let parsed {
            check(NetworkAddress.parseIPv6(parsed.description) == parsed, "\(parsed) does not read back")
        }
    }

    // MARK: - The rule

    /// The rule against the IANA special-purpose registries, written out again here from the docs.
    static func checkRule(_ address: NetworkAddress) {
        let verdict = OutboundAddressRule.verdict(address, allowed: .none)
        check(OutboundAddressRule.verdict(address, allowed: everything) == .permitted, "\(address): everything")
        check((verdict == .permitted) == (address.addressClass == .public), "\(address): \(verdict)")
        if let value = address.ipv4Value {
            let expected = ipv4Class(value)
            check(expected == nil ? verdict == .permitted : verdict == .refused(expected!),
                  "\(address): \(verdict), expected \(expected.map(\.rawValue) ?? "public")")
            // Every IPv6 spelling that wraps it: mapped is refused whatever it wraps, NAT64 is judged by it.
            let mapped = NetworkAddress(bytes: [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] + address.bytes)!
            check(OutboundAddressRule.verdict(mapped, allowed: .none) == .refused(.ipv4Mapped), "\(mapped)")
            let nat64 = NetworkAddress(bytes: [0, 0x64, 0xFF, 0x9B] + [UInt8](repeating: 0, count: 8) + address.bytes)!
            check(OutboundAddressRule.verdict(nat64, allowed: .none) == verdict, "\(nat64) is judged otherwise")
            let single = list("\(address)/32")
            check(OutboundAddressRule.verdict(mapped, allowed: single) == .permitted, "\(address)/32 admits \(mapped)")
        } else {
            check(expectedIPv6Refused(address) == (verdict != .permitted), "\(address): \(verdict)")
        }
    }

    /// The IPv4 special-purpose ranges (IANA registry, as the docs list them) and the class each is refused with, the
    /// more specific first (255.255.255.255 lies in 240/4).
    static let ipv4Ranges: [(network: UInt32, length: UInt32, class: AddressClass)] = [
        (0xFFFF_FFFF, 32, .broadcast), (0x7F00_0000, 8, .loopback), (0x0A00_0000, 8, .private),
        (0xAC10_0000, 12, .private), (0xC0A8_0000, 16, .private), (0xA9FE_0000, 16, .linkLocal),
        (0x6440_0000, 10, .sharedAddressSpace), (0xE000_0000, 4, .multicast), (0, 8, .unspecified),
        // IETF protocol assignments, TEST-NET-1, TEST-NET-2, TEST-NET-3, 6to4 relay anycast, benchmarking, 240/4.
        (0xC000_0000, 24, .reserved), (0xC000_0200, 24, .reserved), (0xC633_6400, 24, .reserved),
        (0xCB00_7100, 24, .reserved), (0xC058_6300, 24, .reserved), (0xC612_0000, 15, .reserved),
        (0xF000_0000, 4, .reserved),
    ]

    /// The IPv6 special-purpose prefixes and, where the issue names it, the class each is refused with.
    static let ipv6Ranges: [(prefix: [UInt8], length: Int, class: AddressClass?)] = [
        ([], 128, .unspecified), ([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128, .loopback),
        ([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF], 96, .ipv4Mapped), ([], 96, nil),
        ([0xFC], 7, .private), ([0xFE, 0x80], 10, .linkLocal), ([0xFE, 0xC0], 10, .private), ([0xFF], 8, .multicast),
        ([0x20, 0x01, 0x0D, 0xB8], 32, .reserved), ([0x20, 0x01], 23, .reserved), ([0x20, 0x02], 16, .reserved),
        ([0x3F, 0xFF], 20, .reserved), ([0, 0x64, 0xFF, 0x9B, 0, 1], 48, .private), ([0x01], 64, .reserved),
        ([0x5F], 16, .reserved), ([], 3, nil),
    ]

    /// The class an IPv4 address is refused with; nil for a public one.
    static func ipv4Class(_ value: UInt32) -> AddressClass? {
        ipv4Ranges.first { value >> (32 - $0.length) == $0.network >> (32 - $0.length) }?.class
    }

    /// An address inside one special range (`choice` picks which, `bits` fills the host part) is refused, with the
    /// range's class.
    static func checkSpecialRanges(choice: Int, bits: UInt64) {
        let v4 = ipv4Ranges[choice % ipv4Ranges.count]
        let hostMask: UInt32 = v4.length == 32 ? 0 : ~UInt32(0) >> v4.length
        let inside = NetworkAddress(ipv4: v4.network | UInt32(truncatingIfNeeded: bits) & hostMask)
        check(OutboundAddressRule.verdict(inside, allowed: .none) == .refused(ipv4Class(inside.ipv4Value!)!),
              "\(inside) in \(NetworkAddress(ipv4: v4.network))/\(v4.length): \(inside.addressClass)")
        checkRule(inside)
        let v6 = ipv6Ranges[choice / 7 % ipv6Ranges.count]
        var bytes = (0..<16).map { UInt8(truncatingIfNeeded: (bits &* (2 * UInt64($0) + 1)) >> 56) }
        for bit in 0..<v6.length {
            let mask = UInt8(0x80) >> UInt8(bit % 8)
            let wanted = (bit / 8 < v6.prefix.count ? v6.prefix[bit / 8] : 0) & mask
            bytes[bit / 8] = bytes[bit / 8] & ~mask | wanted
        }
        let address = NetworkAddress(bytes: bytes)!
        let verdict = OutboundAddressRule.verdict(address, allowed: .none)
        if v6.length == 3 {
            checkRule(address)   // 2000::/3 itself: public unless one of the special prefixes inside it
        } else if let expected = v6.class {
            check(verdict == .refused(expected), "\(address) in a /\(v6.length) \(expected) range: \(verdict)")
        } else {
            check(verdict != .permitted, "\(address) in a special /\(v6.length) range: \(verdict)")
        }
    }

    /// Whether an IPv6 address must be refused: outside 2000::/3, or in a special range inside it; NAT64 by the
    /// IPv4 address it wraps.
    static func expectedIPv6Refused(_ address: NetworkAddress) -> Bool {
        let bytes = address.bytes
        func within(_ prefix: [UInt8], _ length: Int) -> Bool {
            (0..<length).allSatisfy { bit in
                let index = bit / 8
                let mask = UInt8(0x80) >> UInt8(bit % 8)
                return bytes[index] & mask == (index < prefix.count ? prefix[index] : 0) & mask
            }
        }
        if within([0, 0x64, 0xFF, 0x9B], 96) {
            return ipv4Class(NetworkAddress(bytes: Array(bytes[12...]))!.ipv4Value!) != nil
        }
        guard within([0x20], 3) else { return true }
        let special: [([UInt8], Int)] = [([0x20, 0x01], 23), ([0x20, 0x01, 0x0D, 0xB8], 32), ([0x20, 0x02], 16),
                                         ([0x3F, 0xFF], 20)]
        return special.contains { within($0.0, $0.1) }
    }

    /// A spelling `inet_aton` reads as `address`, chosen by `choice` (every check allocates, slowly under ASan, so
    /// one spelling and one URL per input): only the canonical one may name a URL host, and only when the rule
    /// permits the address; an odd one is refused even where the allow-list admits the address.
    static func checkSpellings(_ address: NetworkAddress, choice: Int) {
        let value = address.ipv4Value!
        let b = address.bytes.map(UInt32.init)
        let octal = { (number: UInt32) in "0" + String(number, radix: 8) }
        let hex = { (number: UInt32) in "0x" + String(number, radix: 16) }
        let odd = [
            "\(value)", hex(value), octal(value), "\(b[0]).\(b[1]).\(b[2] << 8 | b[3])",
            "\(b[0]).\(b[1] << 16 | b[2] << 8 | b[3])", "\(octal(b[0])).\(b[1]).\(b[2]).\(b[3])",
            "\(hex(b[0])).\(b[1]).\(b[2]).\(b[3])", "\(b[0]).\(b[1]).\(b[2]).\(hex(b[3]).uppercased())",
        ]
        let spelling = odd[choice % odd.count]
        guard let (parsed, kind) = NetworkAddress.parseIPv4(spelling) else {
            return check(false, "'\(spelling)' of \(address) does not parse")
        }
        check(parsed == address && kind == .odd, "'\(spelling)' reads as \(parsed), \(kind)")
        var glibc = in_addr()
        check(inet_aton(spelling, &glibc) != 0 && UInt32(bigEndian: glibc.s_addr) == value,
              "inet_aton does not read '\(spelling)' as \(address)")
        let url = ["http://\(spelling)/hook", "https://\(spelling):443", "http://\(spelling)./"][choice / 8 % 3]
        let allowed = choice / 24 % 2 == 0 ? NetworkAllowList.none : everything
        guard case .failure(let refusal) = ForwardURL.validate(url, allowed: allowed) else {
            return check(false, "'\(url)' accepted")
        }
        check(refusal.code == .forwardURLAddress, "'\(url)' refused as \(refusal.code)")

        let canonical = address.description
        check(NetworkAddress.parseIPv4(canonical).map { $0.address == address && $0.spelling == .canonical } == true,
              "\(canonical) is not canonical")
        let mapped = NetworkAddress(bytes: [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] + address.bytes)!
        let nat64 = NetworkAddress(bytes: [0, 0x64, 0xFF, 0x9B] + [UInt8](repeating: 0, count: 8) + address.bytes)!
        let literals = [("http://\(canonical)/hook", address), ("http://[::ffff:\(canonical)]/", mapped),
                        ("http://[::FFFF:\(String(value >> 16, radix: 16)):\(String(value & 0xFFFF, radix: 16))]/",
                         mapped),
                        ("https://[64:ff9b::\(canonical)]:8443/", nat64)]
        let (literalURL, literal) = literals[choice / 48 % literals.count]
        let lists = [NetworkAllowList.none, narrow, everything, list("\(address)/32")]
        let list = lists[choice / 3 % lists.count]
        let permitted = OutboundAddressRule.verdict(literal, allowed: list) == .permitted
        switch ForwardURL.validate(literalURL, allowed: list) {
        case .success(let valid):
            check(permitted && valid.address == literal,
                  "'\(literalURL)' accepted as \(valid.address.map(\.description) ?? "a name")")
        case .failure(let refusal):
            check(!permitted && refusal.code == .forwardURLAddress, "'\(literalURL)' refused as \(refusal.code)")
        }
    }

    // MARK: - Allow-lists

    static func checkAllowList(_ value: String, _ bytes: [UInt8]) -> NetworkAllowList? {
        switch NetworkAllowList.parse(value) {
        case .failure(let refusal):
            check(refusal.code == .networkFormat && refusal.field == "FORWARD_ALLOWED_NETWORKS",
                  "'\(value)' refused as \(refusal.code)")
            return nil
        case .success(let allowed):
            let printed = allowed.blocks.map(\.description).joined(separator: ",")
            check(NetworkAllowList.parse(printed) == .success(allowed), "'\(value)' prints as '\(printed)'")
            for block in allowed.blocks {
                check(block.contains(block.network) && allowed.admits(block.network), "\(block) lacks its network")
                check(NetworkBlock.parse(block.description) == block, "\(block) does not read back")
            }
            let v4 = NetworkAddress(bytes: material(bytes, count: 4, offset: 7))!
            let mapped = NetworkAddress(bytes: [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] + v4.bytes)!
            if allowed.admits(v4) { check(allowed.admits(mapped), "'\(value)' admits \(v4), not \(mapped)") }
            return allowed
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    static func isHexDigitByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }
}
