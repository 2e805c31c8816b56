/// Where and how `SMTPClient` delivers mail.
public struct SMTPConfiguration: Sendable {
    /// `smtp://host:port` (plain, STARTTLS when offered) or `smtps://host:port` (implicit TLS), optionally
    /// with `user:password@` (percent-encoded) for AUTH.
    public var url: String
    /// Seconds allowed for the TCP (and TLS) connect.
    public var connectTimeout: Double
    /// Seconds allowed for the whole session, from connect to the server's reply to the message.
    public var totalTimeout: Double
    /// For `smtp://`: refuse to continue unless the server offers STARTTLS (no effect on `smtps://`).
    ///
    /// When false, STARTTLS is still used whenever the server offers it (and its certificate is verified).
    public var requireTLS: Bool
    /// A PEM file of CA certificates trusted in addition to the system's (`/etc/ssl/certs`): for tests with a TLS
    /// sink of their own (`SMTP_CA_FILE`). Certificate and host name verification are always on.
    public var caFile: String?

    /// Creates a configuration with a 5 s connect and 30 s total timeout.
    public init(url: String, connectTimeout: Double = 5, totalTimeout: Double = 30, requireTLS: Bool = false,
                caFile: String? = nil) {
        self.url = url
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.requireTLS = requireTLS
        self.caFile = caFile
    }
}
