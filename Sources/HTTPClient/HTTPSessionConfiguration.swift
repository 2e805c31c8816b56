/// How an `HTTPSession` connects and what it sends and keeps.
public struct HTTPSessionConfiguration: Sendable {
    /// Asked for every address before a connection is opened; nil connects anywhere.
    public var peerCheck: PeerAddressCheck?
    /// A PEM file of CA certificates trusted in addition to the system's (`/etc/ssl/certs`); for tests with a CA of
    /// their own. Certificate and host name verification are always on.
    public var caFile: String?
    /// Request bodies larger than this are refused before anything is sent (`.requestTooLarge`).
    public var maxRequestBytes: Int
    /// The response body kept: the first `maxResponseBytes` bytes; the transfer stops reading there and the response
    /// is returned with that prefix.
    public var maxResponseBytes: Int
    /// The largest response header block accepted; more fails the request (`.responseTooLarge`).
    public var maxHeaderBytes: Int
    /// `CURLOPT_RESOLVE` entries, `host:port:address`: names answered without DNS (tests pin names to addresses;
    /// the peer check still sees every address).
    public var pinnedAddresses: [String]

    /// Defaults: no check, system CAs only, 1 MiB requests, 64 KiB of response kept, 64 KiB of headers.
    public init(peerCheck: PeerAddressCheck? = nil, caFile: String? = nil, maxRequestBytes: Int = 1 << 20,
                maxResponseBytes: Int = 64 << 10, maxHeaderBytes: Int = 64 << 10, pinnedAddresses: [String] = []) {
        self.peerCheck = peerCheck
        self.caFile = caFile
        self.maxRequestBytes = maxRequestBytes
        self.maxResponseBytes = maxResponseBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.pinnedAddresses = pinnedAddresses
    }
}
