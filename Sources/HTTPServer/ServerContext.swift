import Synchronization

/// What libmicrohttpd's callbacks need from the server; travels to them through `void *cls`.
///
/// `Server.start()` retains it for the daemon and `Server.stop(drainTimeout:)` releases it after
/// `MHD_stop_daemon`, once no callback can run any more.
final class ServerContext: Sendable {
    let responder: any Responder
    let proxyTrust: ProxyTrust
    /// Requests whose headers have arrived and whose response has not been fully sent.
    let inFlight = Atomic<Int>(0)
    /// Open connections: the per-client cap and the header deadline.
    let connections: OpenConnections

    init(responder: any Responder, proxyTrust: ProxyTrust, connections: OpenConnections) {
        self.responder = responder
        self.proxyTrust = proxyTrust
        self.connections = connections
    }
}
