/// A failure talking to Redis: what went wrong (`kind`) and a human-readable detail (`message`).
///
/// Messages never contain a password from the URL. `.server` is only thrown by `RedisReply.checked()`;
/// `RedisConnection.command` returns error replies as `.error` values.
public struct RedisError: Error, Sendable, CustomStringConvertible {
    /// The category of a failure, stable for callers to switch over.
    public enum Kind: Sendable, Equatable {
        /// The configured URL could not be parsed.
        case invalidURL
        /// The TCP/unix connection, AUTH or SELECT failed (including a connect timeout).
        case connectFailed
        /// A command got no answer within `commandTimeout`; the connection is now broken.
        case timeout
        /// The server closed the connection or an I/O error occurred; the connection is now broken.
        case connectionLost
        /// An `-ERR` reply raised as an error (see `RedisReply.checked()`).
        case server
        /// No pooled connection became free within `checkoutTimeout`.
        case poolTimeout
        /// The reply could not be parsed; the connection is now broken.
        case protocolError
    }

    public let kind: Kind
    public let message: String

    /// Creates an error of `kind` with a detail `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "Redis \(kind): \(message)" }
}
