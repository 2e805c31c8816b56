/// One HTTP request for `HTTPClient.send`.
public struct HTTPRequest: Sendable {
    /// The method token, e.g. `GET`, `POST`, `PUT`.
    public var method: String
    /// An absolute `http://` or `https://` URL; other schemes are refused.
    public var url: String
    /// Header fields in sending order; names and values must not contain CR, LF or NUL.
    public var headers: [(String, String)]
    /// The request body; sent when non-empty or when the method is POST, PUT or PATCH.
    public var body: [UInt8]
    /// Seconds allowed for the TCP (and TLS) connect.
    public var connectTimeout: Double
    /// Seconds allowed for the whole exchange, connect included.
    public var totalTimeout: Double

    /// Creates a request; the defaults make a bodiless GET with a 5 s connect and 10 s total timeout.
    public init(
        method: String = "GET",
        url: String,
        headers: [(String, String)] = [],
        body: [UInt8] = [],
        connectTimeout: Double = 5,
        totalTimeout: Double = 10
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
    }
}
