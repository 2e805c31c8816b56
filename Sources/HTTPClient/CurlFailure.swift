import CCurl

/// The class of a failed libcurl transfer, read from its `CURLcode`; `HTTPClient` and `SMTPClient` each map it to
/// their own public error kind.
enum CurlFailure: Equatable {
    /// The URL is malformed or names a protocol the handle does not allow.
    case malformedURL
    /// Name resolution (of the host or the proxy) or the TCP connect failed.
    case connectFailed
    /// The connect or total timeout passed.
    case timeout
    /// TLS failed: the handshake, certificate verification, or TLS required (`CURLOPT_USE_SSL`) but not offered.
    case tls
    /// The transfer would exceed `CURLOPT_MAXFILESIZE`.
    case tooLarge
    /// The server refused the credentials.
    case loginDenied
    /// Any other failure.
    case other

    /// Classifies `code`, which is not `CURLE_OK`.
    init(_ code: CURLcode) {
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            self = .malformedURL
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT:
            self = .connectFailed
        case CURLE_OPERATION_TIMEDOUT:
            self = .timeout
        case CURLE_USE_SSL_FAILED, CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
             CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT:
            self = .tls
        case CURLE_FILESIZE_EXCEEDED:
            self = .tooLarge
        case CURLE_LOGIN_DENIED:
            self = .loginDenied
        default:
            self = .other
        }
    }
}
