import Domain
import Foundation
import HTTPClient
import Synchronization

/// Sends forward POSTs under the SSRF guard (issue 14): the URL is validated again before every send
/// (`ForwardURL.validate`, so odd IPv4 spellings never reach libcurl), and every address libcurl is about to connect
/// to — after DNS — must pass `OutboundAddressRule` with the allow-list, or the socket is never opened. No
/// redirect is followed, no proxy from the environment is used, certificates are always verified, bodies over
/// 1 MiB are never sent, each attempt is bounded by `timeout` seconds, and only the first `keptAnswerBytes` of an
/// answer are read.
///
/// Keeps a pool of `HTTPSession`s: a consumer thread takes one for its send and puts it back, so there are at most as
/// many handles as threads sending at once, and connections to a receiver stay open between forwards (keep-alive).
public final class Forwarder: Sendable {
    /// How forwards connect.
    public struct Settings: Sendable {
        /// `FORWARD_ALLOWED_NETWORKS`: networks reachable although not public (tests, private deployments).
        public var allowed: NetworkAllowList
        /// `FORWARD_CA_FILE`: a PEM file of CAs trusted in addition to the system's; for tests only.
        public var caFile: String?
        /// Seconds for one attempt, connect included.
        public var timeout: Double
        /// `host:port:address` entries answered without DNS; for tests (the guard still checks the address).
        public var pinnedAddresses: [String]
        /// The check at connect time; nil uses `Forwarder.peerCheck(allowed:)`. Tests wrap the rule here so that no
        /// connection to a non-loopback address is ever attempted, whatever the rule answers.
        public var peerCheck: PeerAddressCheck?

        public init(allowed: NetworkAllowList = .none, caFile: String? = nil, timeout: Double = 10,
                    pinnedAddresses: [String] = [], peerCheck: PeerAddressCheck? = nil) {
            self.allowed = allowed
            self.caFile = caFile
            self.timeout = timeout
            self.pinnedAddresses = pinnedAddresses
            self.peerCheck = peerCheck
        }
    }

    /// Bodies over this many bytes are never sent.
    public static let maxBodyBytes = 1 << 20
    /// The bytes of an answer that are read and kept.
    public static let keptAnswerBytes = 4096

    public let settings: Settings
    private let idle = Mutex<[HTTPSession]>([])

    public init(settings: Settings) {
        self.settings = settings
        HTTPClient.globalInit()
    }

    /// The connect-time check of `OutboundAddressRule` under `allowed`.
    public static func peerCheck(allowed: NetworkAllowList) -> PeerAddressCheck {
        PeerAddressCheck { bytes in
            guard let address = NetworkAddress(bytes: bytes) else { return false }
            return OutboundAddressRule.verdict(address, allowed: allowed) == .permitted
        }
    }

    /// POSTs `body` with `headers` to `url` on the calling thread and reports what happened; never throws.
    public func post(url: String, headers: [(String, String)], body: [UInt8]) -> ForwardAttempt {
        let started = DispatchTime.now()
        func elapsed() -> Int { Int((DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000) }
        let valid: ForwardURL
        switch ForwardURL.validate(url, allowed: settings.allowed) {
        case .success(let url):
            valid = url
        case .failure(let refusal):
            // A literal host the rules refuse (or an odd spelling of one) is refused like an address at connect time.
            let error = refusal.code == .forwardURLAddress ? "address refused" : "invalid url"
            return ForwardAttempt(host: "", status: nil, answer: [], error: error, durationMs: elapsed())
        }
        guard body.count <= Self.maxBodyBytes else {
            return ForwardAttempt(host: valid.host, status: nil, answer: [], error: "too large", durationMs: elapsed())
        }
        let session: HTTPSession
        do {
            session = try checkout()
        } catch {
            return ForwardAttempt(host: valid.host, status: nil, answer: [], error: "transport", durationMs: elapsed())
        }
        defer { checkin(session) }
        let request = HTTPRequest(method: "POST", url: valid.text, headers: headers, body: body,
                                  connectTimeout: min(5, settings.timeout), totalTimeout: settings.timeout)
        do {
            let response = try session.send(request)
            return ForwardAttempt(host: valid.host, status: response.status, answer: response.body, error: nil,
                                  durationMs: elapsed())
        } catch {
            return ForwardAttempt(host: valid.host, status: nil, answer: [], error: Self.describe(error.kind),
                                  durationMs: elapsed())
        }
    }

    private func checkout() throws(HTTPClientError) -> HTTPSession {
        if let session = idle.withLock({ $0.popLast() }) { return session }
        return try HTTPSession(configuration: HTTPSessionConfiguration(
            peerCheck: settings.peerCheck ?? Self.peerCheck(allowed: settings.allowed), caFile: settings.caFile,
            maxRequestBytes: Self.maxBodyBytes, maxResponseBytes: Self.keptAnswerBytes,
            pinnedAddresses: settings.pinnedAddresses))
    }

    private func checkin(_ session: HTTPSession) {
        idle.withLock { $0.append(session) }
    }

    static func describe(_ kind: HTTPClientError.Kind) -> String {
        switch kind {
        case .invalidURL: "invalid url"
        case .invalidRequest: "invalid request"
        case .addressRefused: "address refused"
        case .connectFailed: "connect failed"
        case .timeout: "timeout"
        case .tls: "tls"
        case .requestTooLarge, .responseTooLarge: "too large"
        case .transport: "transport"
        }
    }
}
