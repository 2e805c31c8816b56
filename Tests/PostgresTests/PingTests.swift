import Foundation
import Postgres
import Testing

/// `ping(timeout:)`: a probe bounded by the client, for readiness checks that must not hang.
@Suite struct PingTests {
    @Test func aHealthyServerAnswersThePing() throws {
        let connection = try PostgresFixture.connection()
        try connection.ping(timeout: 2)
        #expect(!connection.isBroken)
        #expect(try connection.query("SELECT 2 AS two").rows.first?["two"] == "2")
    }

    @Test func aFrozenBackendFailsThePingWithinTheBoundAndTheConnectionIsDropped() throws {
        let connection = try PostgresFixture.connection()
        let backend = connection.backendPID
        #expect(backend > 0)
        kill(backend, SIGSTOP)
        defer { kill(backend, SIGCONT) }
        let started = Date()
        #expect {
            try connection.ping(timeout: 0.5)
        } throws: { error in
            (error as? PostgresError)?.kind == .connectionLost
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed >= 0.4 && elapsed < 2, "took \(elapsed) s")
        #expect(connection.isBroken)
    }

    @Test func aPoolReplacesTheConnectionThatFailedItsPing() throws {
        let pool = Pool(configuration: try PostgresFixture.configuration(poolSize: 1))
        let frozen = try pool.withConnection { $0.backendPID }
        kill(frozen, SIGSTOP)
        defer { kill(frozen, SIGCONT) }
        #expect(throws: PostgresError.self) { try pool.withConnection { try $0.ping(timeout: 0.3) } }
        let next = try pool.withConnection { connection -> Int32 in
            try connection.ping(timeout: 2)
            return connection.backendPID
        }
        #expect(next != frozen)
    }
}
