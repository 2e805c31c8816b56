/// Decides, at connect time, whether libcurl may open a connection to a resolved peer address.
///
/// `HTTPSession` asks it for every address it is about to connect to — after name resolution, for literal hosts
/// and pinned names alike — and refuses the socket when it answers false, so no packet leaves for a refused
/// address. The rules themselves live with the caller (the forwarder uses `Domain.OutboundAddressRule`); this
/// module only carries the bytes.
public struct PeerAddressCheck: Sendable {
    /// Gets 4 (IPv4) or 16 (IPv6) network-order bytes; true lets the connection be opened.
    public let permits: @Sendable (_ bytes: [UInt8]) -> Bool

    public init(_ permits: @escaping @Sendable (_ bytes: [UInt8]) -> Bool) {
        self.permits = permits
    }
}

/// One address a transfer was about to connect to, and whether the check let it.
public struct PeerDecision: Sendable, Equatable {
    /// 4 or 16 network-order bytes.
    public let address: [UInt8]
    public let permitted: Bool

    public init(address: [UInt8], permitted: Bool) {
        self.address = address
        self.permitted = permitted
    }
}
