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

    /// One session for the whole library: a session lives until it is invalidated, so one per client or per
    /// `Attribution` would pile up. Ephemeral: no cookies, no cache. Timeouts are per request (and the timer below).
    static let sharedSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }()

    init(timeout: TimeInterval, retry: RetryPolicy, log: (@Sendable (String) -> Void)?) {
        session = Self.sharedSession
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
        switch await exchange(request) {
        case .success(let answer):
            log?("\(method) \(path) -> \(answer.status) (attempt \(attempt))")
            return answer
        case .failure(let failure):
            log?("\(method) \(path) failed on the network (attempt \(attempt))")
            throw failure
        }
    }

    /// One exchange, ended after `timeout` by a timer of its own (on a Dispatch queue, so it fires even while the
    /// cooperative pool is busy), which finishes the wait and cancels the task — also where URLSession's own
    /// timeouts differ between platforms; cancelling the caller does the same.
    private func exchange(_ request: URLRequest) async -> Result<ServerAnswer, TransportFailure> {
        let exchange = Exchange()
        let session = session
        let timeout = timeout
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                exchange.start(continuation)
                let task = session.dataTask(with: request) { data, response, error in
                    guard error == nil, let http = response as? HTTPURLResponse else {
                        exchange.finish(.failure(TransportFailure(timedOut: (error as? URLError)?.code == .timedOut)))
                        return
                    }
                    exchange.finish(.success(ServerAnswer(status: http.statusCode, retryAfter: Self.retryAfter(http),
                                                          body: data ?? Data())))
                }
                exchange.attach(task)
                task.resume()
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                    exchange.finish(.failure(TransportFailure(timedOut: true)))
                }
            }
        } onCancel: {
            exchange.finish(.failure(TransportFailure(timedOut: false)))
        }
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

/// The state of one exchange: whichever of the answer, the timer and cancellation comes first finishes it; the
/// others find it finished. Finishing resumes the waiting caller once and cancels the task.
private final class Exchange: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<ServerAnswer, TransportFailure>?
    private var continuation: CheckedContinuation<Result<ServerAnswer, TransportFailure>, Never>?
    private var task: URLSessionDataTask?

    func start(_ waiting: CheckedContinuation<Result<ServerAnswer, TransportFailure>, Never>) {
        lock.lock()
        guard let result else {
            continuation = waiting
            lock.unlock()
            return
        }
        lock.unlock()
        waiting.resume(returning: result)
    }

    func attach(_ task: URLSessionDataTask) {
        lock.lock()
        let finished = result != nil
        if !finished { self.task = task }
        lock.unlock()
        if finished { task.cancel() }
    }

    func finish(_ outcome: Result<ServerAnswer, TransportFailure>) {
        lock.lock()
        guard result == nil else {
            lock.unlock()
            return
        }
        result = outcome
        let waiting = continuation
        let task = task
        continuation = nil
        self.task = nil
        lock.unlock()
        waiting?.resume(returning: outcome)
        task?.cancel()
    }
}
