import CCurl
import Synchronization

/// A blocking SMTP client over libcurl, on the caller's thread, reusing connections (issue 17 §4).
///
/// Keeps a pool of libcurl handles: a sending thread takes one and puts it back, so there are at most as many handles
/// (and open connections) as threads sending at once, and each thread's next message goes over the connection its
/// last one used (MAIL FROM right away: no new TCP, TLS or EHLO). libcurl checks that a kept connection is still alive
/// before it reuses one and drops connections idle for more than 118 s (`CURLOPT_MAXAGE_CONN`); a handle whose send
/// failed is closed, not kept, so a failure never leaves a half-spoken session for the next message.
///
/// Speaks only `smtp` and `smtps`, verifies TLS certificates, never uses signals. Envelope addresses with control
/// characters (CR, LF, NUL…) or angle brackets are refused before connecting: they would inject SMTP commands or
/// parameters. Do not call from Swift `async` code.
public final class SMTPClient: Sendable {
    /// The server and timeouts used for every message.
    public let configuration: SMTPConfiguration
    /// Handles not in use, each with its open connection.
    private let idle = Mutex<[KeptHandle]>([])

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
            easy = try checkout()
            recipients = try CurlList(message.to)
            try configure(easy, message, recipients, source)
        } catch {
            throw SMTPError(kind: .transport, message: error.message)
        }
        let result = withExtendedLifetime((source, recipients)) { easy.perform() }
        if result == CURLE_OK { checkin(easy) }
        guard result == CURLE_OK else {
            let reply = easy.responseCode()
            let kind = Self.kind(of: result, reply: reply)
            throw SMTPError(kind: kind, message: easy.message(for: result), replyCode: reply >= 400 ? reply : nil)
        }
    }

    /// Connections this client has open right now (one per idle handle; for tests and diagnostics).
    public var keptConnections: Int { idle.withLock { $0.count } }

    /// An idle handle (reset, its connection kept) or a new one.
    private func checkout() throws(CurlEasy.SetupError) -> CurlEasy {
        if let kept = idle.withLock({ $0.popLast() }) {
            try kept.easy.reset()
            return kept.easy
        }
        return try CurlEasy()
    }

    private func checkin(_ easy: CurlEasy) {
        idle.withLock { $0.append(KeptHandle(easy: easy)) }
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

/// A handle in the idle pool: only one thread uses it at a time (taken out under the pool's lock), so it may cross
/// threads between uses.
private struct KeptHandle: @unchecked Sendable {
    let easy: CurlEasy
}
