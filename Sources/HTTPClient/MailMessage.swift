/// One mail to hand to an SMTP server: the envelope and the finished message.
public struct MailMessage: Sendable {
    /// The envelope sender (`MAIL FROM`), a bare address without angle brackets such as `noreply@example.com`.
    public var from: String
    /// The envelope recipients (`RCPT TO`), bare addresses without angle brackets; at least one.
    public var to: [String]
    /// The full RFC 5322 message (header fields, blank line, body) with CRLF line ends.
    ///
    /// libcurl dot-stuffs lines that start with `.` and appends the terminating `CRLF.CRLF` itself.
    public var data: [UInt8]

    /// Creates a message; addresses are checked when it is sent.
    public init(from: String, to: [String], data: [UInt8]) {
        self.from = from
        self.to = to
        self.data = data
    }
}
