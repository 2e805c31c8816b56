@testable import EventStore
import Foundation
@testable import HTTPServer

/// `forwarded-for`: the bytes as a peer address and `X-Forwarded-For` values (first line the peer, later lines one
/// header each) behind a fixed set of trusted proxies, and as a trusted-proxy list of its own (`ProxyTrust`,
/// `IPAddress`), then the client's key for per-client limits (`ClientAddressGrouping`).
///
/// Properties: an untrusted peer is the client whatever the header says; the client is the peer or one of the hops,
/// and a hop only when it is an IP address; an address parses to 4 or 16 bytes, its text (`inet_ntop`) reads back
/// to the same bytes, it agrees with the lookup hash's parser (`LookupHash.ipBytes`), and lies in every range written
/// from it (`<address>/<n>`, and `::ffff:a.b.c.d/(96+n)` like `a.b.c.d/n`); a proxy list either parses or is refused
/// with `ServerError`; an IPv4 client is keyed by its address, an IPv6 client by its /n network (an address with a
/// bit changed after the prefix shares the key, one changed inside it does not), and text that is no address by
/// itself.
enum ForwardedForFuzz {
    static let target = FuzzTarget(name: "forwarded-for", maxLength: 1024, run: run)

    static let trust: ProxyTrust = {
        do {
            return try ProxyTrust(["127.0.0.1", "10.0.0.0/8", "::1", "fd00::/8", "::ffff:192.168.0.0/112"])
        } catch {
            fatalError("the fixed proxy list does not parse: \(error)")
        }
    }()

    static func run(_ bytes: [UInt8]) {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { text($0) }
        let peer = lines[0]
        let headers = Array(lines.dropFirst())
        checkClient(peer: peer, headers: headers, trust: trust)
        for line in lines {
            for hop in line.split(separator: ",") { checkAddress(hop[...].trimmingSpaces(), bytes) }
        }
        if let custom = try? ProxyTrust(headers.flatMap { $0.split(separator: ",").map(String.init) }) {
            checkClient(peer: peer, headers: headers, trust: custom)
        }
    }

    private static func checkClient(peer: String, headers: [String], trust: ProxyTrust) {
        let client = trust.clientIP(peer: peer, forwardedFor: headers)
        if !trust.trusts(peer) { check(client == peer, "untrusted peer \(peer) gave client \(client)") }
        if IPAddress(client) == nil {
            check(ClientAddressGrouping().key(for: client) == client, "'\(client)' is keyed otherwise")
        }
        guard client != peer else { return }
        let hops = headers.flatMap { $0.split(separator: ",").map { $0.trimmingSpaces() } }
        check(hops.contains(client), "client \(client) is neither the peer nor a hop")
        check(IPAddress(client) != nil, "client \(client) is not an IP address")
    }

    private static func checkAddress(_ text: String, _ bytes: [UInt8]) {
        guard let address = IPAddress(text) else {
            check(LookupHash.ipBytes(text) == nil, "LookupHash takes '\(text)', IPAddress does not")
            return
        }
        check(address.bytes.count == 4 || address.bytes.count == 16, "'\(text)' gave \(address.bytes.count) bytes")
        check(LookupHash.ipBytes(text) == address.bytes, "LookupHash and IPAddress disagree on '\(text)'")
        let printed = address.text
        check(IPAddress(printed) == address, "'\(text)' prints as '\(printed)', which reads otherwise")
        let bits = address.bytes.count * 8
        for length in [0, 1, bits / 2, bits - 1, bits] {
            let range = try? ProxyTrust(["\(printed)/\(length)"])
            check(range?.trusts(text) == true, "\(printed)/\(length) does not contain '\(text)'")
            if bits == 32 { checkMappedRange(address, printed: printed, length: length) }
        }
        checkGrouping(address, text, prefix: 1 + Int(material(bytes, count: 1)[0]) % 128)
        checkGrouping(address, text, prefix: ClientAddressGrouping.defaultIPv6PrefixLength)
    }

    /// `::ffff:a.b.c.d/(96+n)` is the range `a.b.c.d/n` written in IPv6 form: it is accepted and trusts the same
    /// addresses (the address itself, inside, and the address with the last bit of its prefix flipped, outside).
    private static func checkMappedRange(_ address: IPAddress, printed: String, length: Int) {
        let plain = try? ProxyTrust(["\(printed)/\(length)"])
        let mapped = try? ProxyTrust(["::ffff:\(printed)/\(96 + length)"])
        check(mapped != nil, "::ffff:\(printed)/\(96 + length) is refused")
        guard let plain, let mapped else { return }
        let probes = [printed, length > 0 ? flipping(address, bit: length - 1).text : printed]
        for probe in probes {
            check(mapped.trusts(probe) == plain.trusts(probe),
                  "::ffff:\(printed)/\(96 + length) and \(printed)/\(length) disagree on \(probe)")
        }
    }

    private static func checkGrouping(_ address: IPAddress, _ text: String, prefix: Int) {
        let grouping = ClientAddressGrouping(ipv6PrefixLength: prefix)
        let key = grouping.key(for: text)
        guard address.isIPv6 else {
            check(key == address.text, "IPv4 '\(text)' keyed as '\(key)'")
            return
        }
        let network = key.split(separator: "/", omittingEmptySubsequences: false)
        check(network.count == 2 && network[1] == "\(prefix)"
                  && IPAddress(String(network[0])) == address.masked(toPrefix: prefix),
              "'\(text)' keyed as '\(key)' under /\(prefix)")
        if prefix < 128 {
            check(grouping.key(for: flipping(address, bit: 127).text) == key,
                  "'\(text)': a neighbour in its /\(prefix) has another key")
        }
        check(grouping.key(for: flipping(address, bit: prefix - 1).text) != key,
              "'\(text)': an address outside its /\(prefix) shares the key '\(key)'")
    }

    /// `address` with bit `bit` (0 = the most significant) flipped.
    private static func flipping(_ address: IPAddress, bit: Int) -> IPAddress {
        var bytes = address.bytes
        bytes[bit / 8] ^= 0x80 >> UInt8(bit % 8)
        return IPAddress(bytes: bytes)
    }
}
