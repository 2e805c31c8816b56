import CCurl

/// One libcurl handle kept across requests, so connections to a receiver stay open between them (keep-alive); for
/// one thread at a time (a pool or a thread owns it). Freed with its connections in `deinit`.
///
/// Like `HTTPClient` it speaks only `http` and `https`, never follows redirects (a 3xx is returned as is), verifies
/// certificates and host names, and uses no signals; in addition it asks `peerCheck` about every address before
/// connecting (`CURLOPT_OPENSOCKETFUNCTION`), ignores proxy environment variables (a proxy would hide the real
/// peer), refuses request bodies over `maxRequestBytes` before connecting, and keeps only the first
/// `maxResponseBytes` of a response body. Do not call from Swift `async` code.
public final class HTTPSession: @unchecked Sendable {
    public let configuration: HTTPSessionConfiguration
    /// The addresses the last `send` was about to connect to, with the check's answers (empty when it reused an open
    /// connection).
    public private(set) var lastPeers: [PeerDecision] = []
    /// Connections the last `send` opened (0 when it reused one).
    public private(set) var lastNewConnections = 0
    private let easy: CurlEasy

    /// Creates the handle; nothing connects until `send`.
    public init(configuration: HTTPSessionConfiguration = HTTPSessionConfiguration()) throws(HTTPClientError) {
        precondition(configuration.maxRequestBytes >= 0 && configuration.maxResponseBytes >= 0
                     && configuration.maxHeaderBytes > 0, "HTTPSession: negative limits")
        self.configuration = configuration
        do {
            easy = try CurlEasy()
        } catch {
            throw HTTPClientError(kind: .transport, message: error.message)
        }
    }

    /// Sends `request` and waits for the response (at most `request.totalTimeout`); every status is a response.
    ///
    /// Throws `HTTPClientError`: `.addressRefused` when the check refused every address of the host (nothing was
    /// sent), `.requestTooLarge` for a body over the limit (nothing was sent), `.tls` when the certificate does not
    /// verify, and the other kinds as `HTTPClient` does.
    public func send(_ request: HTTPRequest) throws(HTTPClientError) -> HTTPResponse {
        lastPeers = []
        lastNewConnections = 0
        try HTTPClient.validate(request)
        guard request.body.count <= configuration.maxRequestBytes else {
            throw HTTPClientError(kind: .requestTooLarge,
                                  message: "the body has \(request.body.count) bytes, over the limit of "
                                    + "\(configuration.maxRequestBytes)")
        }
        let collector = ResponseCollector(bodyLimit: configuration.maxResponseBytes,
                                          headerLimit: configuration.maxHeaderBytes)
        let peerGuard = PeerGuard(check: configuration.peerCheck)
        let headerList: CurlList
        let resolveList: CurlList
        do {
            try easy.reset()
            headerList = try CurlList(HTTPClient.headerLines(request))
            resolveList = try CurlList(configuration.pinnedAddresses)
            try configure(request, headerList, resolveList, collector, peerGuard)
        } catch {
            throw HTTPClientError(kind: .transport, message: error.message)
        }
        let result = withExtendedLifetime((collector, headerList, resolveList, peerGuard)) { easy.perform() }
        lastPeers = peerGuard.decisions
        var connects = 0
        _ = handoff_curl_getinfo_long(easy.handle, CURLINFO_NUM_CONNECTS, &connects)
        lastNewConnections = connects
        let status = easy.responseCode()
        if result == CURLE_OK || (collector.bodyTruncated && status > 0) {
            return HTTPResponse(status: status, headers: collector.headers, body: collector.body)
        }
        if peerGuard.refusedAny && !peerGuard.decisions.contains(where: \.permitted) {
            let count = peerGuard.decisions.count
            throw HTTPClientError(kind: .addressRefused, message: "no permitted address: refused \(count) at connect")
        }
        let kind = collector.exceededLimit ? .responseTooLarge : HTTPClient.kind(of: result)
        throw HTTPClientError(kind: kind, message: easy.message(for: result))
    }

    private func configure(_ request: HTTPRequest, _ headerList: CurlList, _ resolveList: CurlList,
                           _ collector: ResponseCollector, _ peerGuard: PeerGuard) throws(CurlEasy.SetupError) {
        try easy.set(CURLOPT_URL, request.url)
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        // An empty proxy switches off http_proxy / HTTPS_PROXY / ALL_PROXY from the environment.
        try easy.set(CURLOPT_PROXY, "")
        try easy.set(CURLOPT_SSL_VERIFYPEER, 1)
        try easy.set(CURLOPT_SSL_VERIFYHOST, 2)
        // CAINFO replaces the bundle file; the system's CA directory (CAPATH, /etc/ssl/certs) stays trusted.
        if let caFile = configuration.caFile { try easy.set(CURLOPT_CAINFO, caFile) }
        try easy.setTimeout(CURLOPT_CONNECTTIMEOUT_MS, seconds: request.connectTimeout)
        try easy.setTimeout(CURLOPT_TIMEOUT_MS, seconds: request.totalTimeout)
        try easy.set(CURLOPT_HTTPHEADER, list: headerList.head)
        if resolveList.head != nil { try easy.set(CURLOPT_RESOLVE, list: resolveList.head) }
        try easy.check(handoff_curl_setopt_opensocket_function(easy.handle, handoffCurlOpenSocket),
                       CURLOPT_OPENSOCKETFUNCTION)
        try easy.set(CURLOPT_OPENSOCKETDATA, pointer: Unmanaged.passUnretained(peerGuard).toOpaque())
        try HTTPClient.setMethodAndBody(easy, request)
        let context = Unmanaged.passUnretained(collector).toOpaque()
        try easy.check(handoff_curl_setopt_write_function(easy.handle, handoffCurlWriteBody), CURLOPT_WRITEFUNCTION)
        try easy.set(CURLOPT_WRITEDATA, pointer: context)
        let header = handoff_curl_setopt_header_function(easy.handle, handoffCurlWriteHeader)
        try easy.check(header, CURLOPT_HEADERFUNCTION)
        try easy.set(CURLOPT_HEADERDATA, pointer: context)
    }
}
