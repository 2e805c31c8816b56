/// Why `SMTPClient.send` did not hand the message over.
public struct SMTPError: Error, Sendable, CustomStringConvertible {
    /// The class of failure, for callers to branch on; `message` is for logs only.
    public enum Kind: Sendable, Equatable {
        /// The URL is malformed or not `smtp`/`smtps`.
        case invalidURL
        /// An envelope address contains a control character (CR, LF, NUL…) or `<`/`>`, or there is no
        /// recipient; nothing was sent.
        case invalidAddress
        /// Name resolution or the TCP connect failed.
        case connectFailed
        /// The connect or total timeout passed.
        case timeout
        /// TLS (implicit or STARTTLS) failed or was required but not offered.
        case tls
        /// The server refused the credentials.
        case authentication
        /// The server answered the envelope or the message with an error reply (see `replyCode`).
        case rejected
        /// Any other failure while talking to the server.
        case transport
    }

    /// The class of failure.
    public let kind: Kind
    /// A human-readable detail (libcurl's message), for logs; never branch on it.
    public let message: String
    /// The server's last SMTP reply code when it answered with an error, e.g. 450 or 550.
    public let replyCode: Int?

    /// Creates an error value.
    public init(kind: Kind, message: String, replyCode: Int? = nil) {
        self.kind = kind
        self.message = message
        self.replyCode = replyCode
    }

    /// True when retrying cannot help: a 5xx reply, bad addresses, a bad URL or refused credentials.
    public var isPermanent: Bool {
        switch kind {
        case .invalidURL, .invalidAddress, .authentication: true
        case .rejected: (replyCode ?? 500) >= 500
        case .connectFailed, .timeout, .tls, .transport: false
        }
    }

    public var description: String {
        "SMTPError.\(kind)\(replyCode.map { " (\($0))" } ?? ""): \(message)"
    }
}
