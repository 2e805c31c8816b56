import Foundation
import HTTPClient
import TestSupport

/// A real `handoff dev` (API and every worker role) for one test: its own scratch database, its own Redis (so rate
/// limits and job streams are the test's alone), an SMTP sink for recovery mail, fresh identity secrets, and one
/// tenant. The library under test talks to it over a socket; setup calls (payments, campaigns) go through libcurl.
final class HandoffServer: @unchecked Sendable {
    let database: ScratchDatabase
    let redis: ScratchRedis
    let sink: SMTPSink
    let tenant: (org: String, project: String, key: String)
    let base: String
    private let process: ChildProcess

    /// Starts the server for a tenant made with `project create` flags `settings`; waits up to 30 s for `/healthz`.
    init(_ settings: [String] = []) throws {
        database = try ScratchDatabase.migrated(prefix: "kit")
        redis = try ScratchRedis()
        sink = try SMTPSink()
        tenant = try database.tenant(settings)
        let port = try Shell.freePort()
        base = "http://127.0.0.1:\(port)"
        process = try ChildProcess([try HandoffBinary.path(), "dev"], environment: [
            "HTTP_PORT": String(port), "DATABASE_URL": database.appURL, "MIGRATION_DATABASE_URL": database.ownerURL,
            "REDIS_URL": redis.url, "SMTP_URL": sink.url, "MAIL_FROM": "noreply@handoff.test",
            "PATH": "/usr/bin:/bin", "PUBLIC_BASE_URL": base, "LOG_LEVEL": "error", "METRICS_ADDRESS": "off",
            "REDIS_TIMEOUT_MS": "300",
            "HANDOFF_MASTER_KEY": Self.secret(), "HANDOFF_LOOKUP_PEPPER": Self.secret(),
            "HANDOFF_PASS_KEYS": "kit1:" + Self.secret(),
        ])
        for _ in 0..<300 {
            if (try? send("GET", "/healthz").status) == 200 { return }
            usleep(100_000)
        }
        throw ServerFailure(what: "handoff dev did not start: " + process.output())
    }

    /// `init(settings)` on a thread of its own: starting Postgres databases, Redis and the server blocks for seconds,
    /// which must not hold the cooperative pool the library's requests (and other tests) run on.
    static func start(_ settings: [String] = []) async throws -> HandoffServer {
        try await offPool { try HandoffServer(settings) }
    }

    deinit {
        process.signal(SIGTERM)
        _ = try? process.wait(timeout: 30)
    }

    var baseURL: URL { URL(string: base)! }

    /// Stops the server process (SIGSTOP): connections are accepted by the kernel and never answered.
    func pause() { process.signal(SIGSTOP) }

    /// Lets a paused server run again (SIGCONT).
    func resume() { process.signal(SIGCONT) }

    /// 32 random bytes, base64url without padding (the form the identity secrets take).
    static func secret() -> String {
        Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// One request to the server; `key` adds the tenant's secret key.
    func send(_ method: String, _ path: String, body: String = "", key: Bool = false) throws -> HTTPResponse {
        var headers = [("Content-Type", "application/json")]
        if key { headers.append(("Authorization", "Bearer " + tenant.key)) }
        return try HTTPClient().send(HTTPRequest(method: method, url: base + path, headers: headers,
                                                 body: Array(body.utf8), totalTimeout: 20))
    }

    /// A server-to-server call that must succeed (2xx); its JSON answer.
    func s2s(_ method: String, _ path: String, _ body: String) throws -> [String: Any] {
        let answer = try send(method, path, body: body, key: true)
        guard (200..<300).contains(answer.status),
              let json = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any] else {
            throw ServerFailure(what: "\(method) \(path) answered \(answer.status): "
                                + String(decoding: answer.body, as: UTF8.self))
        }
        return json
    }

    /// Records a payment for `guid` as an app's backend does; the answer (`handoff`, `install`).
    func pay(guid: String, paymentId: String, email: String? = nil) throws -> [String: Any] {
        let mail = email.map { #","email":"\#($0)""# } ?? ""
        return try s2s("POST", "/s2s/v1/payments", #"{"guid":"\#(guid)","paymentId":"\#(paymentId)","amount":999,"#
            + #""currency":"EUR","productId":"com.app.pro","entitlement":"pro","expiresAt":"2099-01-01T00:00:00Z""#
            + mail + "}")
    }

    /// The raw recovery mails received so far, oldest first.
    func mails() -> [String] { sink.messages() }
}

/// A setup step that did not work, with what the server said.
struct ServerFailure: Error, CustomStringConvertible {
    let what: String
    var description: String { what }
}

/// Runs blocking `work` (child processes, waits) on a new thread and awaits its result, leaving the cooperative pool
/// free: on 2 cores, a few tests blocking it delay every other test's timers and continuations by many seconds.
func offPool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
