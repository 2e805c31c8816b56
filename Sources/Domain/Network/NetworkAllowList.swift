/// The networks forwards may reach although the outbound rules refuse them (`FORWARD_ALLOWED_NETWORKS`):
/// comma-separated CIDR blocks, empty by default. For tests (a receiver on loopback) and private deployments.
public struct NetworkAllowList: Hashable, Sendable {
    /// The blocks, in the order given.
    public let blocks: [NetworkBlock]

    /// No network: only public addresses may be reached.
    public static let none = NetworkAllowList(blocks: [])

    public init(blocks: [NetworkBlock]) {
        self.blocks = blocks
    }

    /// Parses `10.0.0.0/8, fd00::/8` (spaces around commas allowed, empty text = none); refuses with
    /// `VALIDATION_NETWORK_FORMAT` naming `field` when any element is not a canonical CIDR block.
    public static func parse(_ text: String, field: String = "FORWARD_ALLOWED_NETWORKS")
        -> Result<NetworkAllowList, FieldRefusal>
    {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty else { return .success(.none) }
        var blocks: [NetworkBlock] = []
        for element in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            guard let block = NetworkBlock.parse(String(element).trimmingSpaces) else {
                return .failure(FieldRefusal(
                    field: field, code: .networkFormat,
                    rule: "be comma-separated CIDR blocks such as 10.0.0.0/8 or fd00::/8 (no host bits past the "
                        + "prefix)"))
            }
            blocks.append(block)
        }
        return .success(NetworkAllowList(blocks: blocks))
    }

    /// Whether a block admits `address`. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is also admitted by an IPv4
    /// block holding `a.b.c.d`: it reaches that IPv4 host.
    public func admits(_ address: NetworkAddress) -> Bool {
        if blocks.contains(where: { $0.contains(address) }) { return true }
        guard address.addressClass == .ipv4Mapped, let wrapped = address.embeddedIPv4 else { return false }
        return blocks.contains { $0.contains(wrapped) }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
