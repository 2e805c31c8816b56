import Foundation
import Postgres
import Testing
import TestSupport

@Suite struct ConnectingTests {
    /// `user@database` as the server sees the connection made from `url`.
    static func currentUser(_ url: String) throws -> String {
        let row = try Connection(configuration: PostgresConfiguration(url: url))
            .query("SELECT current_user || '@' || current_database() AS who").rows[0]
        return try row.string("who")
    }

    @Test func aURIConnects() throws {
        #expect(try Self.currentUser(TestEnvironment.databaseURL()) == "handoff@handoff")
    }

    @Test func aKeyValueConnectionStringConnects() throws {
        let url = "host=127.0.0.1 port=\(try PostgresFixture.port()) user=handoff dbname=handoff"
        #expect(try Self.currentUser(url) == "handoff@handoff")
    }

    @Test func aUnixSocketURIConnects() throws {
        let socketFolder = try TestEnvironment.scratchFolder() + "/run"
        let url = "postgresql://handoff@/handoff?host=\(socketFolder)&port=\(try PostgresFixture.port())"
        #expect(try Self.currentUser(url) == "handoff@handoff")
    }

    @Test func aClosedPortFailsPromptlyWithoutRevealingThePassword() throws {
        let port = try Shell.freePort()
        let started = Date()
        let error = #expect(throws: PostgresError.self) {
            try Connection(configuration: PostgresConfiguration(
                url: "postgresql://handoff:Sup3rSecretPw@127.0.0.1:\(port)/handoff"
            ))
        }
        #expect(error?.kind == .connectFailed)
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(error?.description.contains("Sup3rSecretPw") == false)
        #expect(error?.message.isEmpty == false)
        #expect(error?.message.contains("\n") == false)
    }

    @Test func aKeyValueStringWithAPasswordForAClosedPortDoesNotRevealIt() throws {
        let port = try Shell.freePort()
        let error = #expect(throws: PostgresError.self) {
            try Connection(configuration: PostgresConfiguration(
                url: "host=127.0.0.1 port=\(port) user=handoff password=Sup3rSecretPw dbname=handoff"
            ))
        }
        #expect(error?.kind == .connectFailed)
        #expect(error?.description.contains("Sup3rSecretPw") == false)
    }

    @Test func anUnparsableURLFailsAsConnectFailedWithoutEchoingIt() throws {
        let error = #expect(throws: PostgresError.self) {
            try Connection(configuration: PostgresConfiguration(
                url: "postgresql://handoff:Sup3rSecretPw@127.0.0.1:notaport/x%zz"
            ))
        }
        #expect(error?.kind == .connectFailed)
        #expect(error?.description.contains("Sup3rSecretPw") == false)
    }

    @Test func aClosedConnectionIsBrokenAndRefusesQueries() throws {
        let connection = try PostgresFixture.connection()
        #expect(!connection.isBroken)
        connection.close()
        #expect(connection.isBroken)
        let error = #expect(throws: PostgresError.self) { try connection.query("SELECT 1") }
        #expect(error?.kind == .connectionLost)
    }

    @Test func anUnknownRoleFailsAsConnectFailed() throws {
        let url = "postgresql://nobody_\(UUID().uuidString.prefix(8))@127.0.0.1:\(try PostgresFixture.port())/handoff"
        let error = #expect(throws: PostgresError.self) {
            try Connection(configuration: PostgresConfiguration(url: url))
        }
        #expect(error?.kind == .connectFailed)
    }
}
