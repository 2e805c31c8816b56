/// Which peers may speak for a client through `X-Forwarded-For`, and who the client then is.
struct ProxyTrust: Sendable {
    private struct Range: Sendable {
        let network: IPAddress
        let prefixLength: Int
    }

    private let ranges: [Range]

    /// Parses addresses and CIDR ranges (`"127.0.0.1"`, `"10.0.0.0/8"`, `"::1"`, `"fd00::/8"`).
    init(_ entries: [String]) throws(ServerError) {
        var ranges: [Range] = []
        for entry in entries {
            let parts = entry.split(separator: "/", maxSplits: 1).map(String.init)
            guard let first = parts.first, let network = IPAddress(first) else {
                throw .invalidConfiguration("trusted proxy \"\(entry)\" is not an IP address or CIDR range")
            }
            // The prefix counts bits of the address as written: 128 for IPv6 text, even when it is a mapped IPv4
            // address, which `IPAddress` keeps as its 4 IPv4 bytes.
            let writtenAsIPv6 = first.contains(":")
            let maximum = writtenAsIPv6 ? 128 : 32
            var length = network.bytes.count * 8
            if parts.count == 2 {
                guard let parsed = Int(parts[1]), (0...maximum).contains(parsed) else {
                    throw .invalidConfiguration("trusted proxy \"\(entry)\" has a bad prefix length")
                }
                // A mapped IPv4 range written in IPv6 form ("::ffff:10.0.0.0/104") counts its bits from bit 96.
                length = writtenAsIPv6 && network.bytes.count == 4 ? max(0, parsed - 96) : parsed
            }
            ranges.append(Range(network: network, prefixLength: length))
        }
        self.ranges = ranges
    }

    /// Whether `address` lies in a trusted range.
    func trusts(_ address: String) -> Bool {
        guard !ranges.isEmpty, let parsed = IPAddress(address) else { return false }
        return ranges.contains { parsed.sharesPrefix(with: $0.network, length: $0.prefixLength) }
    }

    /// The client address for a request from `peer` carrying these `X-Forwarded-For` values.
    ///
    /// Walks the hops right to left starting at the peer; every trusted address may name the next hop.
    /// The first untrusted hop is the client. A hop that is not an IP address ends the walk at the last
    /// address known good; if every hop is trusted, the left-most one is the client.
    func clientIP(peer: String, forwardedFor: [String]) -> String {
        client(peer: peer, forwardedFor: forwardedFor).ip
    }

    /// The address the client of `clientIP(peer:forwardedFor:)` says it forwarded for: the `X-Forwarded-For` hop
    /// just left of that client (the right-most hop when the peer is not trusted); nil when there is none or it is
    /// not an IP address. Nothing vouches for it: a caller trusts it only with other proof that the client is a
    /// proxy (Handoff's API: a valid proxy key, docs/app-links.md).
    func forwardedClientIP(peer: String, forwardedFor: [String]) -> String? {
        client(peer: peer, forwardedFor: forwardedFor).forwardedIP
    }

    /// `clientIP` and `forwardedClientIP` of one request from one walk of its hops (a request without
    /// `X-Forwarded-For` from a peer no range trusts costs nothing more than the peer).
    func client(peer: String, forwardedFor: [String]) -> (ip: String, forwardedIP: String?) {
        let hops = forwardedFor.isEmpty ? [] : Self.hops(forwardedFor)
        let index = clientIndex(peer: peer, hops: hops)
        let ip = index == hops.count ? peer : hops[index]
        guard index > 0, IPAddress(hops[index - 1]) != nil else { return (ip, nil) }
        return (ip, hops[index - 1])
    }

    /// The position of the client among `hops` (`hops.count` for the peer itself): walks right to left from the
    /// peer while each address is trusted; a hop that is not an IP address ends the walk at the last good one.
    private func clientIndex(peer: String, hops: [String]) -> Int {
        var index = hops.count
        guard trusts(peer) else { return index }
        while index > 0 {
            guard IPAddress(hops[index - 1]) != nil else { return index }
            index -= 1
            if !trusts(hops[index]) { return index }
        }
        return index
    }

    private static func hops(_ forwardedFor: [String]) -> [String] {
        forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
