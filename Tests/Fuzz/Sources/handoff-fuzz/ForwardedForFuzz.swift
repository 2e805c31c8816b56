@testable import EventStore
import Foundation
@testable import HTTPServer

#if canImport(Glibc)
import Glibc
#endif

/// `forwarded-for`: the bytes as a peer address and `X-Forwarded-For` values (first line the peer, later lines one
/// header each) behind a fixed set of trusted proxies, and as a trusted-proxy list of its own (`ProxyTrust`,
/// `IPAddress`).
///
/// Properties: an untrusted peer is the client whatever the header says; the client is the peer or one of the hops,
/// and a hop only when it is an IP address; an address parses to 4 or 16 bytes, prints (`inet_ntop`) to text that
/// parses to the same bytes, agrees with the lookup hash's parser (`LookupHash.ipBytes`), and lies in every range
/// written from it (`<address>/<n>`); a proxy list either parses or is refused with `ServerError`.
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
            for hop in line.split(separator: ",") { checkAddress(hop[...].trimmingSpaces()) }
        }
        if let custom = try? ProxyTrust(headers.flatMap { $0.split(separator: ",").map(String.init) }) {
            checkClient(peer: peer, headers: headers, trust: custom)
        }
    }

    private static func checkClient(peer: String, headers: [String], trust: ProxyTrust) {
        let client = trust.clientIP(peer: peer, forwardedFor: headers)
        if !trust.trusts(peer) { check(client == peer, "untrusted peer \(peer) gave client \(client)") }
        guard client != peer else { return }
        let hops = headers.flatMap { $0.split(separator: ",").map { $0.trimmingSpaces() } }
        check(hops.contains(client), "client \(client) is neither the peer nor a hop")
        check(IPAddress(client) != nil, "client \(client) is not an IP address")
    }

    private static func checkAddress(_ text: String) {
        guard let address = IPAddress(text) else {
            check(LookupHash.ipBytes(text) == nil, "LookupHash takes '\(text)', IPAddress does not")
            return
        }
        check(address.bytes.count == 4 || address.bytes.count == 16, "'\(text)' gave \(address.bytes.count) bytes")
        check(LookupHash.ipBytes(text) == address.bytes, "LookupHash and IPAddress disagree on '\(text)'")
        let printed = printedAddress(address.bytes)
        check(IPAddress(printed)?.bytes == address.bytes, "'\(text)' prints as '\(printed)', which reads otherwise")
        let bits = address.bytes.count * 8
        for length in [0, 1, bits / 2, bits - 1, bits] {
            let range = try? ProxyTrust(["\(printed)/\(length)"])
            check(range?.trusts(text) == true, "\(printed)/\(length) does not contain '\(text)'")
            if bits == 32 { checkMappedRange(address, printed: printed, length: length) }
        }
    }

    /// `::ffff:a.b.c.d/(96+n)` is the range `a.b.c.d/n` written in IPv6 form: it is accepted and trusts the same
    /// addresses (the address itself, inside, and the address with the last bit of its prefix flipped, outside).
    private static func checkMappedRange(_ address: IPAddress, printed: String, length: Int) {
        let plain = try? ProxyTrust(["\(printed)/\(length)"])
        let mapped = try? ProxyTrust(["::ffff:\(printed)/\(96 + length)"])
        check(mapped != nil, "::ffff:\(printed)/\(96 + length) is refused")
        guard let plain, let mapped else { return }
        var flipped = address.bytes
        if length > 0 { flipped[(length - 1) / 8] ^= 0x80 >> UInt8((length - 1) % 8) }
        for probe in [printed, printedAddress(flipped)] {
            check(mapped.trusts(probe) == plain.trusts(probe),
                  "::ffff:\(printed)/\(96 + length) and \(printed)/\(length) disagree on \(probe)")
        }
    }

    /// The text `inet_ntop` writes for 4 or 16 bytes.
    private static func printedAddress(_ bytes: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count))
        }
        check(written != nil, "inet_ntop refused \(bytes)")
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
