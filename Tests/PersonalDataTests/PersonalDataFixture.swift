import Foundation
import Migrate
import Postgres
import TestSupport

/// One database migrated with the bundled migrations, shared by this target's tests; each test uses its own org.
enum PersonalDataFixture {
    private static let migrated: Result<String, any Error> = Result {
        let url = try TestDatabase.create(prefix: "pii")
        let connection = try Connection(configuration: PostgresConfiguration(url: url, poolSize: 1))
        defer { connection.close() }
        _ = try Migrator(migrations: try Migration.bundled()).run(on: connection)
        return url
    }

    /// The URL of the migrated database (created and migrated on first use).
    static func databaseURL() throws -> String { try migrated.get() }

    /// A new connection to the migrated database (owner role).
    static func connection() throws -> Connection {
        try Connection(configuration: PostgresConfiguration(url: try databaseURL(), poolSize: 1))
    }
}
