import CHiredis
import Foundation

/// One blocking hiredis connection with connect and per-command timeouts.
///
/// Use it from one thread at a time (a `RedisPool` guarantees that). After a timeout, an I/O error or a
/// protocol error the connection is broken for good (`isBroken`): every later command throws
/// `.connectionLost`; drop it and open a new one (the pool does so on checkin).
///
/// Error replies (`-ERR …`) come back as `RedisReply.error` values, not thrown errors; only failures of the
/// connection itself throw. `reply.checked()` turns an error reply into a thrown `RedisError(.server)`.
public final class RedisConnection: @unchecked Sendable {
    private let context: UnsafeMutablePointer<redisContext>
    private var brokenReason: RedisError?
    /// The `RedisMasterLocator` epoch this connection's address came from (0 without Sentinel); set by the pool.
    var masterEpoch = 0

    /// Connects, sets the command timeout, then sends `AUTH` and `SELECT` when the URL asks for them.
    ///
    /// - Throws: `.invalidURL`, `.connectFailed` (refused, unreachable, connect timeout, AUTH/SELECT refused),
    ///   or `.timeout` when the server accepts the socket but does not answer AUTH/SELECT.
    public convenience init(configuration: RedisConfiguration) throws {
        try self.init(configuration: configuration, address: nil)
    }

    /// Connects to `address` (nil: the URL's) with the URL's credentials and database; for Sentinel's master.
    convenience init(configuration: RedisConfiguration, address: RedisEndpoint.Address?) throws {
        var endpoint = try RedisEndpoint(url: configuration.url)
        if let address { endpoint.address = address }
        try self.init(endpoint: endpoint, connectTimeout: configuration.connectTimeout,
                      commandTimeout: configuration.commandTimeout)
    }

    /// Connects to `endpoint` and applies its credentials and database.
    init(endpoint: RedisEndpoint, connectTimeout connectSeconds: Double, commandTimeout commandSeconds: Double) throws {
        let connectTimeout = RedisConnection.makeTimeval(seconds: connectSeconds)
        let opened: UnsafeMutablePointer<redisContext>? = switch endpoint.address {
        case .tcp(let host, let port): redisConnectWithTimeout(host, Int32(port), connectTimeout)
        case .unix(let path): redisConnectUnixWithTimeout(path, connectTimeout)
        }
        guard let opened else { throw RedisError(.connectFailed, "could not allocate a hiredis context") }
        if opened.pointee.err != 0 {
            let reason = String(cString: handoff_redis_errstr(opened))
            redisFree(opened)
            throw RedisError(.connectFailed, "connect to \(endpoint.address.display) failed: \(reason)")
        }
        context = opened
        let commandTimeout = RedisConnection.makeTimeval(seconds: commandSeconds)
        guard redisSetTimeout(context, commandTimeout) == REDIS_OK else {
            let reason = String(cString: handoff_redis_errstr(context))
            throw RedisError(.connectFailed, "could not set the command timeout: \(reason)")
        }
        if let password = endpoint.password {
            let arguments = ["AUTH"] + (endpoint.username.map { [$0] } ?? []) + [password]
            if case .error(let message) = try command(arguments) {
                throw RedisError(.connectFailed, "AUTH refused: \(message)")
            }
        }
        if endpoint.database != 0, case .error(let message) = try command(["SELECT", String(endpoint.database)]) {
            throw RedisError(.connectFailed, "SELECT \(endpoint.database) refused: \(message)")
        }
    }

    deinit { redisFree(context) }

    /// True once a timeout or I/O error has made this connection unusable.
    public var isBroken: Bool { brokenReason != nil }

    /// Sends one command (each element one argument, UTF-8) and returns its reply.
    ///
    /// - Throws: `.timeout`, `.connectionLost` or `.protocolError`; error replies are returned, not thrown.
    @discardableResult
    public func command(_ arguments: [String]) throws -> RedisReply {
        try command(arguments.map { Array($0.utf8) })
    }

    /// Sends one command with binary-safe arguments (any bytes, including NUL and CRLF) and returns its reply.
    ///
    /// - Throws: `.timeout`, `.connectionLost` or `.protocolError`; error replies are returned, not thrown, except
    ///   `READONLY` (the server is a replica now, after a failover), which breaks the connection: `.connectionLost`.
    @discardableResult
    public func command(_ arguments: [[UInt8]]) throws -> RedisReply {
        if let brokenReason {
            throw RedisError(.connectionLost, "connection is broken after: \(brokenReason.message)")
        }
        precondition(!arguments.isEmpty, "a Redis command needs at least one argument")
        typealias Outcome = (reply: UnsafeMutablePointer<redisReply>?, errno: Int32)
        let (raw, savedErrno) = RedisConnection.withSIGPIPEBlocked { () -> Outcome in
            RedisConnection.withArgv(arguments) { argc, argv, lengths in
                let reply = handoff_redis_command_argv(context, argc, argv, lengths)
                return (reply, errno)
            }
        }
        guard let raw else { throw breakConnection(savedErrno: savedErrno) }
        defer { freeReplyObject(raw) }
        let reply = try RedisConnection.copy(raw)
        if case .error(let message) = reply, message.hasPrefix("READONLY") {
            // A master that a failover turned into a replica: nothing was written; the pool replaces the connection.
            let error = RedisError(.connectionLost, "the server became a read-only replica")
            brokenReason = error
            throw error
        }
        return reply
    }

    /// Runs `script` with `EVALSHA`; when the server answers `NOSCRIPT`, loads it with `SCRIPT LOAD` and retries once.
    ///
    /// Script errors and a failed `SCRIPT LOAD` (e.g. a Lua syntax error) come back as `.error` replies.
    public func evaluate(_ script: RedisScript, keys: [String], arguments: [String]) throws -> RedisReply {
        let call = ["EVALSHA", script.sha1, String(keys.count)] + keys + arguments
        let first = try command(call)
        guard case .error(let message) = first, message.hasPrefix("NOSCRIPT") else { return first }
        let loaded = try command(["SCRIPT", "LOAD", script.source])
        if case .error = loaded { return loaded }
        return try command(call)
    }

    /// True when the idle socket is readable or hung up: the server closed it (or sent something unasked for).
    ///
    /// An idle connection has nothing to read, so this catches `CLIENT KILL`, a server restart or an idle
    /// timeout before a command is lost on it. One `poll` with a zero timeout.
    var isStale: Bool {
        if isBroken { return true }
        var descriptor = pollfd(fd: context.pointee.fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) != 0
    }

    private func breakConnection(savedErrno: Int32) -> RedisError {
        let detail = String(cString: handoff_redis_errstr(context))
        let error: RedisError = switch context.pointee.err {
        case REDIS_ERR_IO where savedErrno == EAGAIN || savedErrno == EWOULDBLOCK
            || detail.contains("temporarily unavailable"):
            RedisError(.timeout, "no reply within the command timeout")
        case REDIS_ERR_PROTOCOL: RedisError(.protocolError, detail)
        case REDIS_ERR_EOF: RedisError(.connectionLost, "the server closed the connection")
        default: RedisError(.connectionLost, detail.isEmpty ? "I/O error" : detail)
        }
        brokenReason = error
        return error
    }

    private static func copy(_ reply: UnsafeMutablePointer<redisReply>) throws -> RedisReply {
        let value = reply.pointee
        func text() -> String {
            guard let str = value.str else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: str, count: value.len), as: UTF8.self)
        }
        switch value.type {
        case REDIS_REPLY_STATUS: return .status(text())
        case REDIS_REPLY_ERROR: return .error(text())
        case REDIS_REPLY_INTEGER: return .integer(Int64(value.integer))
        case REDIS_REPLY_NIL: return .null
        case REDIS_REPLY_STRING:
            guard let str = value.str else { return .bulk([]) }
            return .bulk(Array(UnsafeRawBufferPointer(start: str, count: value.len)))
        case REDIS_REPLY_ARRAY:
            guard let elements = value.element else { return .array([]) }
            return .array(try (0..<value.elements).map { index in
                guard let element = elements[index] else { throw RedisError(.protocolError, "missing array element") }
                return try copy(element)
            })
        default:
            throw RedisError(.protocolError, "unknown reply type \(value.type)")
        }
    }

    /// Lays all arguments out in one buffer and calls `body` with hiredis' `argc`, `argv` and `argvlen`.
    private static func withArgv<T>(
        _ arguments: [[UInt8]],
        _ body: (Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> T
    ) -> T {
        let total = arguments.reduce(0) { $0 + $1.count }
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(total, 1), alignment: 1)
        defer { storage.deallocate() }
        var pointers: [UnsafePointer<CChar>?] = []
        var lengths: [Int] = []
        pointers.reserveCapacity(arguments.count)
        lengths.reserveCapacity(arguments.count)
        var offset = 0
        for argument in arguments {
            let start = storage.baseAddress! + offset
            argument.withUnsafeBytes { bytes in
                if let source = bytes.baseAddress { start.copyMemory(from: source, byteCount: bytes.count) }
            }
            pointers.append(UnsafePointer(start.assumingMemoryBound(to: CChar.self)))
            lengths.append(argument.count)
            offset += argument.count
        }
        return pointers.withUnsafeMutableBufferPointer { argv in
            lengths.withUnsafeBufferPointer { argvlen in
                body(Int32(arguments.count), argv.baseAddress!, argvlen.baseAddress!)
            }
        }
    }

    /// Runs `body` with SIGPIPE blocked on this thread and swallows a SIGPIPE it raised.
    ///
    /// hiredis writes with `write(2)`, which raises SIGPIPE on a socket the server reset; by default that kills
    /// the process. The same technique libpq uses; a SIGPIPE already pending before is left alone.
    private static func withSIGPIPEBlocked<T>(_ body: () -> T) -> T {
        var pipe = sigset_t()
        sigemptyset(&pipe)
        sigaddset(&pipe, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipe, &previous)
        var pending = sigset_t()
        sigpending(&pending)
        let wasPending = sigismember(&pending, SIGPIPE) == 1
        let result = body()
        if !wasPending {
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var immediately = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipe, nil, &immediately)
            }
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        return result
    }

    private static func makeTimeval(seconds: Double) -> timeval {
        let clamped = max(seconds, 0.001)
        let whole = clamped.rounded(.down)
        return timeval(tv_sec: Int(whole), tv_usec: Int((clamped - whole) * 1_000_000))
    }
}
