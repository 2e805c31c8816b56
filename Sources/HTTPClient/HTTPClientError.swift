/// Why `HTTPClient.send` produced no response.
public struct HTTPClientError: Error, Sendable, CustomStringConvertible {
    /// The class of failure, for callers to branch on; `message` is for logs only.
    public enum Kind: Sendable, Equatable {
        /// The URL is malformed or not `http`/`https`.
        case invalidURL
        /// The method or a header is malformed (CR, LF or NUL inside, or not a token); nothing was sent.
        case invalidRequest
        /// Name resolution or the TCP connect failed (refused, unreachable, unknown host).
        case connectFailed
        /// The connect or total timeout passed.
        case timeout
        /// The TLS handshake or certificate verification failed.
        case tls
        /// The response body (or header block) exceeded the client's limit; the transfer was aborted.
        case responseTooLarge
        /// Any other failure while sending or receiving.
        case transport
        /// `HTTPSession`: the peer check refused every address of the host at connect time; nothing was sent.
        case addressRefused
        /// `HTTPSession`: the request body is over the session's limit; nothing was sent.
        case requestTooLarge
    }

    /// The class of failure.
    public let kind: Kind
    /// A human-readable detail (libcurl's message), for logs; never branch on it.
    public let message: String

    /// Creates an error value.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "HTTPClientError.\(kind): \(message)" }
}
