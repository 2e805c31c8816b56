import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Accepts connections on the server's listening socket, on a thread of its own, and hands each one to
/// libmicrohttpd with MHD_add_connection.
///
/// The daemon runs without a listen socket (`MHD_USE_NO_LISTEN_SOCKET`), so stopping never needs
/// MHD_quiesce_daemon: `stop()` ends the loop (within one 100 ms poll), joins the thread and closes the socket, after
/// which new connections are refused. `start()` and `stop()` are each called once, by `Server` under its lock.
/// Between polls, at most every 100 ms, the thread also runs `tick` (the server's header-deadline sweep).
final class Acceptor: @unchecked Sendable {
    private let listenSocket: Int32
    private let daemon: OpaquePointer
    private let tick: @Sendable () -> Void
    private let stopping = Atomic<Bool>(false)
    private var thread: pthread_t?

    /// `listenSocket` must be bound, listening and non-blocking; this object closes it in `stop()`.
    init(listenSocket: Int32, daemon: OpaquePointer, tick: @escaping @Sendable () -> Void) {
        self.listenSocket = listenSocket
        self.daemon = daemon
        self.tick = tick
    }

    /// Starts the accept thread. Without a thread (pthread_create failed) nothing is accepted; `stop()` still closes.
    func start() {
        var created = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        if pthread_create(&created, nil, acceptorMain, context) == 0 {
            thread = created
        } else {
            Unmanaged<Acceptor>.fromOpaque(context).release()
        }
    }

    /// Stops accepting, waits for the thread and closes the listening socket.
    func stop() {
        stopping.store(true, ordering: .relaxed)
        if let thread { pthread_join(thread, nil) }
        thread = nil
        close(listenSocket)
    }

    fileprivate func run() {
        var ready = pollfd(fd: listenSocket, events: Int16(POLLIN), revents: 0)
        let tickInterval = Duration.milliseconds(100)
        var lastTick = ContinuousClock.now
        while !stopping.load(ordering: .relaxed) {
            ready.revents = 0
            if poll(&ready, 1, 100) > 0 { acceptBacklog() }
            let now = ContinuousClock.now
            if now - lastTick >= tickInterval {
                lastTick = now
                tick()
            }
        }
    }

    /// Accepts until the backlog is empty (the socket is non-blocking) and hands every connection to the daemon.
    private func acceptBacklog() {
        while !stopping.load(ordering: .relaxed) {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept(listenSocket, $0, &length)
                }
            }
            guard client >= 0 else {
                let error = errno
                if error == EINTR || error == ECONNABORTED { continue }
                // Out of descriptors or memory: let the pool close some before trying again.
                if error == EMFILE || error == ENFILE || error == ENOBUFS || error == ENOMEM { usleep(10_000) }
                return
            }
            // accept4 is not imported (it needs _GNU_SOURCE): set close-on-exec right after.
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            // The daemon owns the socket from here; it closes it itself when it cannot take it (limits).
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    MHD_add_connection(daemon, client, $0, length)
                }
            }
        }
    }
}

/// The accept thread's entry point (a global function: C calls it on a thread of its own).
private func acceptorMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    Unmanaged<Acceptor>.fromOpaque(context).takeRetainedValue().run()
    return nil
}
