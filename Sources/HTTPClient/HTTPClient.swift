import CCurl

/// A blocking HTTP/1.1 and HTTP/2 client over libcurl, for webhooks and outbound API calls.
///
/// `send` runs on the caller's thread with a fresh easy handle, so one client may be shared by any number of
/// threads. It speaks only `http` and `https`, never follows redirects, verifies TLS certificates, and never
/// uses signals. Call `HTTPClient.globalInit()` before starting threads. Do not call from Swift `async` code.
public final class HTTPClient: Sendable {
    /// The largest response body accepted; a larger one aborts the transfer with `.responseTooLarge`.
    public let maxResponseBytes: Int
    /// The largest response header block accepted (status line and fields together).
    public let maxHeaderBytes: Int

    /// Creates a client that accepts response bodies of at most `maxResponseBytes` bytes (default 1 MiB).
    public init(maxResponseBytes: Int = 1 << 20, maxHeaderBytes: Int = 64 << 10) {
        precondition(maxResponseBytes >= 0 && maxHeaderBytes > 0, "HTTPClient: negative limits")
        self.maxResponseBytes = maxResponseBytes
        self.maxHeaderBytes = maxHeaderBytes
        CurlEasy.globalInit()
    }

    /// Runs `curl_global_init(CURL_GLOBAL_DEFAULT)` exactly once per process; call it before threads start.
    ///
    /// Later calls (and the clients' initializers, which call it too) do nothing.
    public static func globalInit() {
        CurlEasy.globalInit()
    }

    /// Sends `request` and waits for the whole response; blocks the calling thread for at most `totalTimeout`.
    ///
    /// Every status code is returned as a response. Throws `HTTPClientError` when no complete response arrived
    /// or the request was refused before sending (bad URL scheme, CR/LF in a header).
    public func send(_ request: HTTPRequest) throws(HTTPClientError) -> HTTPResponse {
        try Self.validate(request)
        let collector = ResponseCollector(bodyLimit: maxResponseBytes, headerLimit: maxHeaderBytes)
        let easy: CurlEasy
        let headerList: CurlList
        do {
            easy = try CurlEasy()
            headerList = try CurlList(Self.headerLines(request))
            try configure(easy, request, headerList, collector)
        } catch {
            throw HTTPClientError(kind: .transport, message: error.message)
        }
        let result = withExtendedLifetime((collector, headerList)) { easy.perform() }
        guard result == CURLE_OK else {
            let kind = collector.exceededLimit ? .responseTooLarge : Self.kind(of: result)
            throw HTTPClientError(kind: kind, message: easy.message(for: result))
        }
        return HTTPResponse(status: easy.responseCode(), headers: collector.headers, body: collector.body)
    }

    private func configure(
        _ easy: CurlEasy, _ request: HTTPRequest, _ headerList: CurlList, _ collector: ResponseCollector
    ) throws(CurlEasy.SetupError) {
        try easy.set(CURLOPT_URL, request.url)
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try easy.setTimeout(CURLOPT_CONNECTTIMEOUT_MS, seconds: request.connectTimeout)
        try easy.setTimeout(CURLOPT_TIMEOUT_MS, seconds: request.totalTimeout)
        // Refuses early when Content-Length announces too much; the write callback catches the rest.
        try easy.set(CURLOPT_MAXFILESIZE, maxResponseBytes)
        try easy.set(CURLOPT_HTTPHEADER, list: headerList.head)

        try Self.setMethodAndBody(easy, request)

        let context = Unmanaged.passUnretained(collector).toOpaque()
        try easy.check(handoff_curl_setopt_write_function(easy.handle, handoffCurlWriteBody), CURLOPT_WRITEFUNCTION)
        try easy.set(CURLOPT_WRITEDATA, pointer: context)
        try easy.check(handoff_curl_setopt_header_function(easy.handle, handoffCurlWriteHeader), CURLOPT_HEADERFUNCTION)
        try easy.set(CURLOPT_HEADERDATA, pointer: context)
    }

    /// The method and body options of `request` (shared with `HTTPSession`).
    static func setMethodAndBody(_ easy: CurlEasy, _ request: HTTPRequest) throws(CurlEasy.SetupError) {
        let method = request.method
        let sendsBody = !request.body.isEmpty || ["POST", "PUT", "PATCH"].contains(method)
        if method == "HEAD" && !sendsBody {
            try easy.set(CURLOPT_NOBODY, 1)
        } else if sendsBody {
            try easy.set(CURLOPT_POST, 1)
            try easy.set(CURLOPT_POSTFIELDSIZE, request.body.count)
            // COPYPOSTFIELDS copies the bytes now, so the body's lifetime does not matter. An empty body still
            // needs a non-null pointer, or libcurl would read the body from stdin.
            let bytes: [UInt8] = request.body.isEmpty ? [0] : request.body
            let copied = bytes.withUnsafeBytes { buffer in
                let pointer = UnsafeMutableRawPointer(mutating: buffer.baseAddress)
                return handoff_curl_setopt_pointer(easy.handle, CURLOPT_COPYPOSTFIELDS, pointer)
            }
            try easy.check(copied, CURLOPT_COPYPOSTFIELDS)
            if method != "POST" { try easy.set(CURLOPT_CUSTOMREQUEST, method) }
        } else if method != "GET" {
            try easy.set(CURLOPT_CUSTOMREQUEST, method)
        }
    }

    /// `Name: value` lines; libcurl's own `Expect: 100-continue` and form Content-Type are switched off.
    static func headerLines(_ request: HTTPRequest) -> [String] {
        var lines = request.headers.map { name, value in
            // "Name:" would tell libcurl to drop its own header; "Name;" sends an empty value.
            value.isEmpty ? "\(name);" : "\(name): \(value)"
        }
        let names = Set(request.headers.map { $0.0.lowercased() })
        if !names.contains("expect") { lines.append("Expect:") }
        if !names.contains("content-type") { lines.append("Content-Type:") }
        return lines
    }

    static func validate(_ request: HTTPRequest) throws(HTTPClientError) {
        let url = request.url.lowercased()
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            throw HTTPClientError(kind: .invalidURL, message: "only http:// and https:// URLs are allowed")
        }
        guard !request.url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            throw HTTPClientError(kind: .invalidURL, message: "the URL contains spaces or control characters")
        }
        guard !request.method.isEmpty, request.method.utf8.allSatisfy(isTokenCharacter) else {
            throw HTTPClientError(kind: .invalidRequest, message: "the method is not an HTTP token")
        }
        for (name, value) in request.headers {
            guard !name.isEmpty, name.utf8.allSatisfy(isTokenCharacter) else {
                throw HTTPClientError(kind: .invalidRequest, message: "a header name is not an HTTP token")
            }
            guard !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                throw HTTPClientError(kind: .invalidRequest, message: "header \(name) contains CR, LF or NUL")
            }
        }
    }

    /// RFC 9110 `tchar`.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    static func kind(of result: CURLcode) -> HTTPClientError.Kind {
        switch CurlFailure(result) {
        case .malformedURL: .invalidURL
        case .connectFailed: .connectFailed
        case .timeout: .timeout
        case .tls: .tls
        case .tooLarge: .responseTooLarge
        case .loginDenied, .other: .transport
        }
    }
}
