import CLibPQ
import Foundation

extension Connection {
    /// Runs `SELECT 1` and waits at most `timeout` seconds for the answer (libpq's asynchronous API and `poll`).
    ///
    /// `statement_timeout` is enforced by the server, so it cannot help when the server itself does not answer
    /// (paused, or the network holds the packets); this bound is kept by the client. On timeout the connection is
    /// closed (the pool then replaces it) and `.connectionLost` is thrown with a message saying so.
    public func ping(timeout: Double) throws {
        let connection = try liveHandleForPing()
        let deadline = Date().addingTimeInterval(timeout)
        guard PQsendQuery(connection, "SELECT 1") == 1 else { throw pingFailure("could not send the probe") }
        while PQflush(connection) == 1 {
            guard try waitForSocket(connection, events: Int16(POLLIN | POLLOUT), until: deadline) else {
                return try giveUp(timeout)
            }
            _ = PQconsumeInput(connection)
        }
        var failure: PostgresError?
        while true {
            while PQisBusy(connection) == 1 {
                guard try waitForSocket(connection, events: Int16(POLLIN), until: deadline) else {
                    return try giveUp(timeout)
                }
                guard PQconsumeInput(connection) == 1 else { throw pingFailure("the connection failed") }
            }
            guard let result = PQgetResult(connection) else { break }
            let status = PQresultStatus(result)
            if status != PGRES_TUPLES_OK && failure == nil {
                failure = PostgresError(kind: .other, message: String(cString: PQresultErrorMessage(result)))
            }
            PQclear(result)
        }
        if let failure { throw failure }
    }

    /// Waits until the socket is ready for `events` or the deadline passes; false on timeout.
    private func waitForSocket(_ connection: OpaquePointer, events: Int16, until deadline: Date) throws -> Bool {
        let socket = PQsocket(connection)
        guard socket >= 0 else { throw pingFailure("the connection has no socket") }
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return false }
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(remaining * 1000, Double(Int32.max))) + 1)
            if ready > 0 { return true }
            if ready == 0 { return false }
            if errno != EINTR { throw pingFailure("poll failed (errno \(errno))") }
        }
    }

    private func giveUp(_ timeout: Double) throws {
        close()
        throw PostgresError(kind: .connectionLost, message: "Postgres did not answer within \(timeout) s")
    }

    private func pingFailure(_ message: String) -> PostgresError {
        close()
        return PostgresError(kind: .connectionLost, message: message)
    }

    private func liveHandleForPing() throws -> OpaquePointer {
        guard let handle = rawHandle, !isBroken else {
            throw PostgresError(kind: .connectionLost, message: "the connection is closed or broken")
        }
        return handle
    }
}
