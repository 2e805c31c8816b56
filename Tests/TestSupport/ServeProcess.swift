import Foundation

/// A real `handoff serve` for end-to-end tests (the headless Chromium pages): a free port on 127.0.0.1, the given
/// database's application role, the suite's Redis, fixed test secrets, `PUBLIC_BASE_URL` = its own address. Started
/// and waited for (`/healthz` answers 200) by `init`; stopped with SIGTERM, drained, by `stop()` or at `deinit`.
public final class ServeProcess: @unchecked Sendable {
    /// The master key the server runs with (the byte 0x61 ×32, base64url); admin commands that seal or open app
    /// secrets need the same one.
    public static let masterKey = base64URL(0x61)

    /// `http://127.0.0.1:<port>`, no trailing slash.
    public let base: String
    /// `127.0.0.1:<port>`.
    public let host: String
    private let process: ChildProcess
    private let lock = NSLock()
    private var stopped = false

    /// Starts the server against `database`; `environment` adds or replaces variables. Throws, with the server's
    /// output, when it does not answer `/healthz` within 10 seconds.
    public init(database: ScratchDatabase, environment: [String: String] = [:]) throws {
        let port = try Shell.freePort()
        host = "127.0.0.1:\(port)"
        base = "http://" + host
        process = try ChildProcess([try HandoffBinary.path(), "serve"], environment: [
            "HTTP_PORT": String(port), "DATABASE_URL": database.appURL, "REDIS_URL": try TestEnvironment.redisURL(),
            "PATH": "/usr/bin:/bin", "PUBLIC_BASE_URL": base, "HANDOFF_MASTER_KEY": Self.masterKey,
            "HANDOFF_LOOKUP_PEPPER": Self.base64URL(0x62), "HANDOFF_PASS_KEYS": "e2e1:" + Self.base64URL(0x63),
            "LOG_LEVEL": "error", "METRICS_ADDRESS": "off",
        ].merging(environment) { $1 })
        for _ in 0..<100 {
            if Self.healthy(port: port) { return }
            usleep(100_000)
        }
        let output = process.output()
        stop()
        throw Shell.Failure(command: ["handoff", "serve"], status: -1, output: "did not start: \(output)")
    }

    deinit { stop() }

    /// Stops the server (SIGTERM, then waits up to 30 seconds for it to drain); harmless when already stopped.
    public func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        process.signal(SIGTERM)
        _ = try? process.wait(timeout: 30)
    }

    /// What the server printed so far.
    public func output() -> String { process.output() }

    /// 32 bytes of `byte` in base64url without padding: a test secret.
    public static func base64URL(_ byte: UInt8) -> String {
        Data(repeating: byte, count: 32).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Whether `GET /healthz` on `port` answers 200 (a plain socket: TestSupport links no HTTP client).
    private static func healthy(port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return false }
        let request = Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        guard send(socket, request, request.count, 0) == request.count else { return false }
        var buffer = [UInt8](repeating: 0, count: 64)
        let read = recv(socket, &buffer, buffer.count, 0)
        guard read > 0 else { return false }
        return String(decoding: buffer.prefix(read), as: UTF8.self).hasPrefix("HTTP/1.1 200")
    }
}
