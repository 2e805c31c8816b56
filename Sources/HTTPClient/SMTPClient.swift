import CCurl

/// A blocking SMTP client over libcurl: one session per message, on the caller's thread.
///
/// Speaks only `smtp` and `smtps`, verifies TLS certificates, never uses signals. Envelope addresses with control
/// characters (CR, LF, NUL…) or angle brackets are refused before connecting: they would inject SMTP commands or
/// parameters. Do not call from Swift `async` code.
public final class SMTPClient: Sendable {
    /// The server and timeouts used for every message.
    public let configuration: SMTPConfiguration

    /// Creates a client; nothing connects until `send`.
    public init(configuration: SMTPConfiguration) {
        self.configuration = configuration
        CurlEasy.globalInit()
    }

    /// Delivers `message` to the configured server and returns once the server accepted it (250 after DATA).
    ///
    /// Any refused recipient fails the whole message. Throws `SMTPError`; `isPermanent` says whether to retry.
    public func send(_ message: MailMessage) throws(SMTPError) {
        try Self.validate(message, url: configuration.url)
        let source = UploadSource(message.data)
        let easy: CurlEasy
        let recipients: CurlList
        do {
            easy = try CurlEasy()
            recipients = try CurlList(message.to)
            try configure(easy, message, recipients, source)
        } catch {
            throw SMTPError(kind: .transport, message: error.message)
        }
        let result = withExtendedLifetime((source, recipients)) { easy.perform() }
        guard result == CURLE_OK else {
            let reply = easy.responseCode()
            let kind = Self.kind(of: result, reply: reply)
            throw SMTPError(kind: kind, message: easy.message(for: result), replyCode: reply >= 400 ? reply : nil)
        }
    }

    private func configure(
        _ easy: CurlEasy, _ message: MailMessage, _ recipients: CurlList, _ source: UploadSource
    ) throws(CurlEasy.SetupError) {
        try easy.set(CURLOPT_URL, configuration.url)
        try easy.set(CURLOPT_PROTOCOLS_STR, "smtp,smtps")
        try easy.setTimeout(CURLOPT_CONNECTTIMEOUT_MS, seconds: configuration.connectTimeout)
        try easy.setTimeout(CURLOPT_TIMEOUT_MS, seconds: configuration.totalTimeout)
        let tls = configuration.requireTLS ? CURLUSESSL_ALL : CURLUSESSL_TRY
        try easy.set(CURLOPT_USE_SSL, Int(tls.rawValue))
        try easy.set(CURLOPT_SSL_VERIFYPEER, 1)
        try easy.set(CURLOPT_SSL_VERIFYHOST, 2)
        // CAINFO replaces the bundle file; the system's CA directory (CAPATH, /etc/ssl/certs) stays trusted.
        if let caFile = configuration.caFile { try easy.set(CURLOPT_CAINFO, caFile) }
        try easy.set(CURLOPT_MAIL_FROM, message.from)
        try easy.set(CURLOPT_MAIL_RCPT, list: recipients.head)
        try easy.set(CURLOPT_UPLOAD, 1)
        try easy.set(CURLOPT_INFILESIZE, message.data.count)
        try easy.check(handoff_curl_setopt_read_function(easy.handle, handoffCurlReadUpload), CURLOPT_READFUNCTION)
        try easy.set(CURLOPT_READDATA, pointer: Unmanaged.passUnretained(source).toOpaque())
    }

    private static func validate(_ message: MailMessage, url: String) throws(SMTPError) {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("smtp://") || lowered.hasPrefix("smtps://") else {
            throw SMTPError(kind: .invalidURL, message: "only smtp:// and smtps:// URLs are allowed")
        }
        guard !message.to.isEmpty else {
            throw SMTPError(kind: .invalidAddress, message: "the message has no recipient")
        }
        for address in [message.from] + message.to where address.utf8.contains(where: isForbidden) {
            throw SMTPError(kind: .invalidAddress, message: "an envelope address contains a control character, < or >")
        }
        for address in message.to where address.isEmpty {
            throw SMTPError(kind: .invalidAddress, message: "an envelope recipient is empty")
        }
    }

    /// Control characters (CR and LF end an SMTP command) and angle brackets (libcurl adds its own).
    private static func isForbidden(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
    }

    /// `reply` is the server's last SMTP reply code: 4xx or 5xx makes an otherwise unclassified failure `.rejected`.
    private static func kind(of result: CURLcode, reply: Int) -> SMTPError.Kind {
        switch CurlFailure(result) {
        case .malformedURL: .invalidURL
        case .connectFailed: .connectFailed
        case .timeout: .timeout
        case .tls: .tls
        case .loginDenied: .authentication
        case .tooLarge, .other: reply >= 400 ? .rejected : .transport
        }
    }
}
