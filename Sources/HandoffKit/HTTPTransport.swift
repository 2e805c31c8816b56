import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends the library's requests with `URLSession`: each bounded by a timeout, 429 and 503 retried by a `RetryPolicy`.
///
/// It logs one line per attempt through `log` (method, the path without its query, status, attempt) — never a query,
/// a body, a code, an e-mail or a guid.
struct HTTPTransport: Sendable {
    let session: URLSession
    let timeout: TimeInterval
    let retry: RetryPolicy
    let log: (@Sendable (String) -> Void)?

    init(timeout: TimeInterval, retry: RetryPolicy, log: (@Sendable (String) -> Void)?) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
        self.timeout = timeout
        self.retry = retry
        self.log = log
    }

    /// Sends `method` to `url` with a JSON `body` (nil: none), retrying 429/503 as the policy allows; the last answer.
    func send(_ method: String, _ url: URL, body: Data? = nil,
              headers: [String: String] = [:]) async throws(TransportFailure) -> ServerAnswer {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        var attempt = 1
        while true {
            let answer = try await once(request, attempt: attempt)
            guard answer.status == 429 || answer.status == 503,
                  let wait = retry.delay(after: attempt, retryAfter: answer.retryAfter) else { return answer }
            try? await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000))
            if Task.isCancelled { return answer }
            attempt += 1
        }
    }

    private func once(_ request: URLRequest, attempt: Int) async throws(TransportFailure) -> ServerAnswer {
        let path = request.url?.path ?? ""
        let method = request.httpMethod ?? "GET"
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            log?("\(method) \(path) failed on the network (attempt \(attempt))")
            throw TransportFailure(timedOut: (error as? URLError)?.code == .timedOut)
        }
        guard let http = response as? HTTPURLResponse else { throw TransportFailure(timedOut: false) }
        log?("\(method) \(path) -> \(http.statusCode) (attempt \(attempt))")
        return ServerAnswer(status: http.statusCode, retryAfter: Self.retryAfter(http), body: data)
    }

    /// `Retry-After` in seconds (the server sends whole seconds; an HTTP date is not used by Handoff).
    static func retryAfter(_ response: HTTPURLResponse) -> TimeInterval? {
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String, name.lowercased() == "retry-after", let value = value as? String else {
                continue
            }
            return TimeInterval(value.trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}

/// A request that got no HTTP answer: the network failed or the timeout passed.
struct TransportFailure: Error, Sendable {
    let timedOut: Bool
}
