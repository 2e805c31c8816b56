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
        /// The peer's address as text, as `opened` was told it (handed to every request on the connection).
        let peer: String
        var phase: Phase
        /// Tells this connection from a later one on the same descriptor.
        let serial: UInt64
    }

    /// One lock's share of the entries: a request's two calls (`headersArrived`, `requestEnded`) take only the lock
    /// of its descriptor's shard, so the pool threads rarely wait for each other (one lock for every connection was
    /// ~5 % of a trivial request's CPU, most of it waiting).
    private final class Shard: Sendable {
        let entries = Mutex<[Int32: Entry]>([:])
    }

    /// Data seen this soon after a response ended may be that request's own (the kernel's clock ticks are coarse).
    private static let clockSlack = Duration.milliseconds(20)
    private static let shardCount = 16

    let limits: Limits
    private let shards: [Shard] = (0..<OpenConnections.shardCount).map { _ in Shard() }
    /// Connections per client key (taken when a connection opens or closes, never per request).
    private let perKey = Mutex<[String: Int]>([:])
    private let nextSerial = Atomic<UInt64>(0)

    init(limits: Limits) {
        self.limits = limits
    }

    private func shard(_ fd: Int32) -> Shard {
        shards[Int(UInt32(bitPattern: fd) % UInt32(Self.shardCount))]
    }

    /// What `headersArrived` tells the pool thread about a connection.
    enum Arrival: Equatable {
        /// Serve the request; `peer` is the connection's address as `opened` was told it (nil: not known here).
        case serve(peer: String?)
        /// The connection was cut (over the cap, or past its header deadline): never serve it.
        case cut
    }

    /// A connection from `peer` (its address as text) started on socket `fd`. Answers false, and cuts it, when its
    /// client already holds `perClient` connections.
    @discardableResult
    func opened(fd: Int32, peer: String, now: ContinuousClock.Instant = .now) -> Bool {
        let key = limits.perClient > 0 && !limits.uncapped.trusts(peer) ? limits.grouping.key(for: peer) : nil
        let deadline = limits.headerTimeout.map { now + $0 }
        var admitted = true
        if let key {
            admitted = perKey.withLock { perKey in
                let count = perKey[key, default: 0] + 1
                perKey[key] = count
                return count <= limits.perClient
            }
        }
        let serial = nextSerial.add(1, ordering: .relaxed).newValue
        shard(fd).entries.withLock { entries in
            entries[fd] = Entry(key: key, peer: peer, phase: admitted ? .awaitingHeaders(deadline: deadline) : .cut,
                                serial: serial)
            if !admitted { _ = shutdown(fd, Int32(SHUT_RDWR)) }
        }
        return admitted
    }

    /// The current request's headers arrived on `fd`: serve it (with the connection's peer address), unless the
    /// connection was cut.
    func headersArrived(fd: Int32) -> Arrival {
        shard(fd).entries.withLock { entries in
            guard let index = entries.index(forKey: fd) else { return .serve(peer: nil) }
            if case .cut = entries.values[index].phase { return .cut }
            entries.values[index].phase = .serving
            return .serve(peer: entries.values[index].peer)
        }
    }

    /// The current request on `fd` ended (answered, refused or failed); the connection may wait for another.
    func requestEnded(fd: Int32, now: ContinuousClock.Instant = .now) {
        shard(fd).entries.withLock { entries in
            guard let index = entries.index(forKey: fd) else { return }
            if case .cut = entries.values[index].phase { return }
            entries.values[index].phase = .idle(since: now)
        }
    }

    /// The connection on `fd` is closing; it no longer counts.
    func closed(fd: Int32) {
        let removed = shard(fd).entries.withLock { $0.removeValue(forKey: fd) }
        guard let key = removed?.key else { return }
        perKey.withLock { perKey in
            let remaining = perKey[key, default: 1] - 1
            perKey[key] = remaining > 0 ? remaining : nil
        }
    }

    /// Connections the client of `peer` holds right now (for tests and diagnostics).
    func count(peer: String) -> Int {
        let key = limits.grouping.key(for: peer)
        return perKey.withLock { $0[key, default: 0] }
    }

    /// Cuts connections whose headers are past their deadline, and starts the deadline of kept-alive connections that
    /// received data since their last response. The server's accept thread calls it every 100 ms.
    func sweep(now: ContinuousClock.Instant = .now) {
        guard let timeout = limits.headerTimeout else { return }
        var idle: [(fd: Int32, serial: UInt64, since: ContinuousClock.Instant)] = []
        for shard in shards {
            shard.entries.withLock { entries in
                for index in entries.indices {
                    let (fd, entry) = entries[index]
                    switch entry.phase {
                    case .awaitingHeaders(let deadline?) where deadline <= now:
                        entries.values[index].phase = .cut
                        _ = shutdown(fd, Int32(SHUT_RDWR))
                    case .idle(let since):
                        idle.append((fd, entry.serial, since))
                    default:
                        break
                    }
                }
            }
        }
        // Outside the locks: a descriptor read here may already belong to a later connection; the serial check below
        // drops what was learnt about it, and getsockopt changes nothing.
        for connection in idle {
            let milliseconds = handoff_tcp_milliseconds_since_data(connection.fd)
            guard milliseconds >= 0 else { continue }
            let lastData = now - .milliseconds(milliseconds)
            guard lastData > connection.since + Self.clockSlack else { continue }
            shard(connection.fd).entries.withLock { entries in
                guard let index = entries.index(forKey: connection.fd),
                      entries.values[index].serial == connection.serial,
                      entries.values[index].phase == .idle(since: connection.since) else { return }
                entries.values[index].phase = .awaitingHeaders(deadline: lastData + timeout)
            }
        }
    }
}
