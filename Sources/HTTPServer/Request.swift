/// One HTTP request as the responder sees it: everything copied out of libmicrohttpd into Swift values.
public struct Request: Sendable {
    /// The request method.
    public var method: Method
    /// The percent-decoded path without the query (`"/v1/store/apple/a b"`); `+` stays `+`.
    public var path: String
    /// Decoded query parameters (`+` is a space); when a name repeats, the last value wins.
    public var query: [String: String]
    /// The query string exactly as sent, without the `?` (empty when there is none).
    public var rawQuery: String
    /// The request's header fields in the order received.
    public var headers: Headers
    /// The body bytes exactly as received (de-chunked); empty for requests without one.
    public var body: [UInt8]
    /// The client's address: the socket peer, or, when the peer is a trusted proxy, the right-most
    /// `X-Forwarded-For` hop that is not itself a trusted proxy.
    public var clientIP: String
    /// The socket peer's address, always, whatever `X-Forwarded-For` says.
    public var remoteAddress: String
    /// The address the client (`clientIP`) says it forwarded for: the `X-Forwarded-For` hop just left of it, when it
    /// is an IP address. Unverified: only a caller with other proof that the client is a proxy may use it.
    public var forwardedClientIP: String?

    /// Makes a request value; tests and the API layer use it to drive responders without a socket.
    public init(
        method: Method,
        path: String,
        query: [String: String] = [:],
        headers: Headers = Headers(),
        body: [UInt8] = [],
        clientIP: String = "127.0.0.1",
        remoteAddress: String = "127.0.0.1",
        rawQuery: String = "",
        forwardedClientIP: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.rawQuery = rawQuery
        self.headers = headers
        self.body = body
        self.clientIP = clientIP
        self.remoteAddress = remoteAddress
        self.forwardedClientIP = forwardedClientIP
    }
}
