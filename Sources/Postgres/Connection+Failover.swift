import CLibPQ
import Foundation

extension Connection {
    /// Whether the server said it accepts only reads: `in_hot_standby` (a standby) or `default_transaction_read_only`
    /// (a primary fenced read-only) is `on` in the parameters it reports to libpq (Postgres 14 and later).
    var isOnReadOnlyServer: Bool {
        guard let handle = rawHandle else { return false }
        let names: [String] = ["in_hot_standby", "default_transaction_read_only"]
        return names.contains { (name: String) -> Bool in
            guard let value = PQparameterStatus(handle, name) else { return false }
            return String(cString: value) == "on"
        }
    }

    /// Whether an idle connection has gone bad without being used: the server closed it (terminated backend,
    /// restart, failover), sent something unasked for, or libpq already knows it is dead.
    ///
    /// An idle connection has nothing to read, so a readable socket means the server is gone or going (it sends a
    /// FATAL message, then closes). One `poll` with a zero timeout; the pool asks before lending an idle connection,
    /// so that after a failover a command is not lost on a connection that died while it waited.
    var isStale: Bool {
        guard let handle = rawHandle, !isBroken else { return true }
        let socket = PQsocket(handle)
        guard socket >= 0 else { return true }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) != 0
    }
}
