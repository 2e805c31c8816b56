/// An HTTP response to send: status, header fields and body bytes.
///
/// The server adds `Content-Length` (any given one is dropped) and, for HEAD requests, sends no body.
public struct Response: Sendable {
    /// The status code (`200`, `404`, …).
    public var status: Int
    /// Header fields to send, in order.
    public var headers: Headers
    /// The body bytes.
    public var body: [UInt8]
    /// A body made while it is sent, instead of `body` (which is then ignored); nil for most answers.
    public var stream: ResponseStream?

    /// Makes a response.
    public init(status: Int, headers: Headers = Headers(), body: [UInt8] = [], stream: ResponseStream? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.stream = stream
    }
}
