import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The server's open connections by socket: how many each client holds (the per-client cap) and whether each
/// one's request headers arrive in time (the header deadline).
///
/// libmicrohttpd reports a connection's start and its end on the pool threads (MHD_OPTION_NOTIFY_CONNECTION), the
/// end always after the start and before it closes the socket, so while an entry exists its descriptor belongs to
/// that connection. A connection over the cap or past its deadline is cut with `shutdown(2)`, only under the lock
/// (never on a descriptor that may have been closed and reused); its pool thread then sees the socket end and
/// closes it, and it is never served (`headersArrived` answers false).
///
/// The header deadline runs from the connection's start for its first request, and for a later request on a
/// kept-alive connection from the first data after the previous response (read from the kernel's
/// `tcpi_last_data_recv` by `sweep`, so an idle kept-alive connection is still governed by the idle timeout only).
final class OpenConnections: Sendable {
    /// The limits, fixed at start.
    struct Limits: Sendable {
        /// Most connections one client (one `ClientAddressGrouping` key) may hold at once; 0 = no cap.
        var perClient: Int
        /// How long a request's headers may take to arrive; nil = no deadline.
        var headerTimeout: Duration?
        /// Which addresses count as one client.
        var grouping: ClientAddressGrouping
        /// Peers the cap does not apply to: trusted proxies, behind which every client shares one address.
        var uncapped: ProxyTrust
    }

    private enum Phase: Equatable {
        /// The current request's headers must have arrived by `deadline` (nil: no deadline).
        case awaitingHeaders(deadline: ContinuousClock.Instant?)
        /// The headers arrived: the request is being read, handled or answered.
        case serving
        /// Kept alive between requests since `since` (the end of the last one).
        case idle(since: ContinuousClock.Instant)
        /// Over the cap or past its deadline: shut down, waiting for libmicrohttpd to close it.
        case cut
    }

    private struct Entry {
        /// The client key it counts under; nil when it is not counted (no cap, or an uncapped peer).
        let key: String?
        var phase: Phase
        /// Tells this connection from a later one on the same descriptor.
        let serial: UInt64
    }

    private struct State {
        var entries: [Int32: Entry] = [:]
        var perKey: [String: Int] = [:]
        var nextSerial: UInt64 = 0
    }

    /// Data seen this soon after a response ended may be that request's own (the kernel's clock ticks are coarse).
    private static let clockSlack = Duration.milliseconds(20)

    let limits: Limits
    private let state = Mutex(State())

    init(limits: Limits) {
        self.limits = limits
    }

    /// A connection from `peer` (its address as text) started on socket `fd`. Answers false, and cuts it, when its
    /// client already holds `perClient` connections.
    @discardableResult
    func opened(fd: Int32, peer: String, now: ContinuousClock.Instant = .now) -> Bool {
        let key = limits.perClient > 0 && !limits.uncapped.trusts(peer) ? limits.grouping.key(for: peer) : nil
        let deadline = limits.headerTimeout.map { now + $0 }
        return state.withLock { state in
            state.nextSerial += 1
            var admitted = true
            if let key {
                let count = state.perKey[key, default: 0] + 1
                state.perKey[key] = count
                admitted = count <= limits.perClient
            }
            state.entries[fd] = Entry(key: key, phase: admitted ? .awaitingHeaders(deadline: deadline) : .cut,
                                      serial: state.nextSerial)
            if !admitted { _ = shutdown(fd, Int32(SHUT_RDWR)) }
            return admitted
        }
    }

    /// The current request's headers arrived on `fd`; false when the connection was cut and must not be served.
    func headersArrived(fd: Int32) -> Bool {
        state.withLock { state in
            guard let entry = state.entries[fd] else { return true }
            guard entry.phase != .cut else { return false }
            state.entries[fd]?.phase = .serving
            return true
        }
    }

    /// The current request on `fd` ended (answered, refused or failed); the connection may wait for another.
    func requestEnded(fd: Int32, now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            guard let entry = state.entries[fd], entry.phase != .cut else { return }
            state.entries[fd]?.phase = .idle(since: now)
        }
    }

    /// The connection on `fd` is closing; it no longer counts.
    func closed(fd: Int32) {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: fd), let key = entry.key else { return }
            let remaining = state.perKey[key, default: 1] - 1
            state.perKey[key] = remaining > 0 ? remaining : nil
        }
    }

    /// Connections the client of `peer` holds right now (for tests and diagnostics).
    func count(peer: String) -> Int {
        let key = limits.grouping.key(for: peer)
        return state.withLock { $0.perKey[key, default: 0] }
    }

    /// Cuts connections whose headers are past their deadline, and starts the deadline of kept-alive connections that
    /// received data since their last response. The server's accept thread calls it every 100 ms.
    func sweep(now: ContinuousClock.Instant = .now) {
        guard let timeout = limits.headerTimeout else { return }
        let idle = state.withLock { state in
            var idle: [(fd: Int32, serial: UInt64, since: ContinuousClock.Instant)] = []
            for (fd, entry) in state.entries {
                switch entry.phase {
                case .awaitingHeaders(let deadline?) where deadline <= now:
                    state.entries[fd]?.phase = .cut
                    _ = shutdown(fd, Int32(SHUT_RDWR))
                case .idle(let since):
                    idle.append((fd, entry.serial, since))
                default:
                    break
                }
            }
            return idle
        }
        // Outside the lock: a descriptor read here may already belong to a later connection; the serial check below
        // drops what was learnt about it, and getsockopt changes nothing.
        var started: [(fd: Int32, serial: UInt64, since: ContinuousClock.Instant, data: ContinuousClock.Instant)] = []
        for connection in idle {
            let milliseconds = handoff_tcp_milliseconds_since_data(connection.fd)
            guard milliseconds >= 0 else { continue }
            let lastData = now - .milliseconds(milliseconds)
            if lastData > connection.since + Self.clockSlack {
                started.append((connection.fd, connection.serial, connection.since, lastData))
            }
        }
        guard !started.isEmpty else { return }
        state.withLock { state in
            for connection in started {
                guard let entry = state.entries[connection.fd], entry.serial == connection.serial,
                      entry.phase == .idle(since: connection.since) else { continue }
                state.entries[connection.fd]?.phase = .awaitingHeaders(deadline: connection.data + timeout)
            }
        }
    }
}
