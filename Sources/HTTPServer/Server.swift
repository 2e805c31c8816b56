import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// An HTTP/1.1 server on libmicrohttpd: an internal epoll loop on each of `threadCount` pool threads, which
/// also run the responder; one thread of the server's own accepts connections and hands them to the pool.
///
/// A request is answered only once it has fully arrived, so connections stay alive between requests.
/// Lifecycle: `start()` once, then `stop(drainTimeout:)` once; a stopped server cannot be restarted.
public final class Server: Sendable {
    private enum Phase {
        case idle
        case running(Daemon)
        case stopped
    }

    /// The daemon and what must outlive it; only touched under `phase`'s lock.
    private final class Daemon: @unchecked Sendable {
        let handle: OpaquePointer
        let acceptor: Acceptor
        let context: Unmanaged<ServerContext>

        init(handle: OpaquePointer, acceptor: Acceptor, context: Unmanaged<ServerContext>) {
            self.handle = handle
            self.acceptor = acceptor
            self.context = context
        }
    }

    private let configuration: ServerConfiguration
    private let responder: any Responder
    private let phase = Mutex<Phase>(.idle)
    private let boundPort = Atomic<Int>(0)
    /// The running daemon's context, for `inFlight`; nil before start and after stop.
    private let liveContext = Mutex<ServerContext?>(nil)

    /// Makes a server; nothing listens until `start()`.
    public init(configuration: ServerConfiguration, responder: any Responder) {
        self.configuration = configuration
        self.responder = responder
    }

    deinit {
        stop(drainTimeout: 0)
    }

    /// Binds the socket and starts the pool threads; returns once connections are accepted.
    ///
    /// Throws `ServerError.socket` naming the failed call (e.g. `bind` with `EADDRINUSE` when the port is taken),
    /// `.invalidConfiguration` for values that cannot work, `.alreadyStarted` on a second call.
    public func start() throws(ServerError) {
        let configuration = configuration
        guard configuration.threadCount >= 1 else { throw .invalidConfiguration("threadCount must be at least 1") }
        guard configuration.connectionTimeout >= 1 else {
            throw .invalidConfiguration("connectionTimeout must be at least 1 second")
        }
        guard configuration.connectionLimit >= configuration.threadCount else {
            throw .invalidConfiguration("connectionLimit must be at least threadCount")
        }
        guard configuration.perIPConnectionLimit >= 0 else {
            throw .invalidConfiguration("perIPConnectionLimit must not be negative")
        }
        guard configuration.headerTimeout >= 0, configuration.headerTimeout.isFinite else {
            throw .invalidConfiguration("headerTimeout must not be negative")
        }
        let proxyTrust = try ProxyTrust(configuration.trustedProxies)
        let connections = OpenConnections(limits: OpenConnections.Limits(
            perClient: configuration.perIPConnectionLimit,
            headerTimeout: configuration.headerTimeout > 0
                ? .milliseconds(Int((configuration.headerTimeout * 1000).rounded())) : nil,
            grouping: configuration.clientGrouping,
            uncapped: proxyTrust))
        try phase.withLock { phase throws(ServerError) in
            guard case .idle = phase else { throw .alreadyStarted }
            let (fd, port) = try ListeningSocket.open(host: configuration.host, port: configuration.port)
            let context = Unmanaged.passRetained(
                ServerContext(responder: responder, proxyTrust: proxyTrust, connections: connections))
            // No listen socket inside libmicrohttpd: `Acceptor` accepts and hands sockets over with
            // MHD_add_connection. Stopping then closes our socket and never calls MHD_quiesce_daemon, which in 0.9.75
            // races an epoll pool worker removing the listen socket first and aborts the process ("Failed to remove
            // listen FD from epoll set", seen in CI while a server drained).
            // The listening socket is ours: dual stack is set on it (`ListeningSocket`), not with MHD_USE_DUAL_STACK.
            var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue
                | MHD_USE_NO_LISTEN_SOCKET.rawValue
            if configuration.host.contains(":") { flags |= MHD_USE_IPv6.rawValue }
            let handle = handoff_mhd_start(
                flags,
                UInt32(configuration.threadCount),
                UInt32(clamping: configuration.connectionTimeout),
                UInt32(clamping: configuration.connectionLimit),
                accessHandler, uriLogged, requestCompleted, connectionNotified,
                context.toOpaque()
            )
            guard let handle else {
                context.release()
                close(fd)
                throw .daemonDidNotStart
            }
            boundPort.store(port, ordering: .relaxed)
            liveContext.withLock { $0 = context.takeUnretainedValue() }
            let acceptor = Acceptor(listenSocket: fd, daemon: handle, tick: { connections.sweep() })
            acceptor.start()
            phase = .running(Daemon(handle: handle, acceptor: acceptor, context: context))
        }
    }

    /// The port the server listens on (the one picked when configured with 0); 0 before `start()`.
    public var port: Int { boundPort.load(ordering: .relaxed) }

    /// Requests whose headers have arrived and whose response has not been completely sent yet.
    public var inFlight: Int {
        liveContext.withLock { $0?.inFlight.load(ordering: .relaxed) ?? 0 }
    }

    /// Stops gracefully: refuses new connections at once, lets in-flight requests finish for up to
    /// `drainTimeout` seconds, then closes every connection and frees the daemon.
    ///
    /// Blocks the caller until done. Idle keep-alive connections are not waited for. Safe to call twice.
    public func stop(drainTimeout: Double) {
        let daemon: Daemon? = phase.withLock { phase in
            guard case .running(let daemon) = phase else {
                phase = .stopped
                return nil
            }
            phase = .stopped
            return daemon
        }
        guard let daemon else { return }
        // Refuse new connections at once: the accept thread ends and the listening socket is closed.
        daemon.acceptor.stop()
        let context = daemon.context.takeUnretainedValue()
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(max(0, drainTimeout) * 1000)))
        while context.inFlight.load(ordering: .relaxed) > 0 && ContinuousClock.now < deadline {
            usleep(5_000)
        }
        MHD_stop_daemon(daemon.handle)
        liveContext.withLock { $0 = nil }
        daemon.context.release()
    }
}
