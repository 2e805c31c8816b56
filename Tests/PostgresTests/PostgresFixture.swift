import Foundation
import Postgres
import TestSupport

/// The shared test database, and names no other test uses.
enum PostgresFixture {
    /// A configuration for the test database (`handoff` role) with the given pool settings.
    static func configuration(
        poolSize: Int = 4, checkoutTimeout: Double = 5, statementTimeoutMilliseconds: Int = 10_000
    ) throws -> PostgresConfiguration {
        PostgresConfiguration(
            url: try TestEnvironment.databaseURL(),
            poolSize: poolSize,
            checkoutTimeout: checkoutTimeout,
            statementTimeoutMilliseconds: statementTimeoutMilliseconds
        )
    }

    /// A fresh connection to the test database.
    static func connection(statementTimeoutMilliseconds: Int = 10_000) throws -> Connection {
        try Connection(configuration: configuration(statementTimeoutMilliseconds: statementTimeoutMilliseconds))
    }

    /// `prefix_` plus a random suffix, safe as an unquoted table name.
    static func uniqueName(_ prefix: String) -> String {
        prefix + "_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
    }

    /// Creates a table with a unique name from `columns` and returns its name.
    static func table(_ prefix: String, columns: String) throws -> String {
        let name = uniqueName(prefix)
        try connection().execute("CREATE TABLE \(name) (\(columns))")
        return name
    }

    struct NoPort: Error {}

    /// The port of the test cluster, read from its URL.
    static func port() throws -> Int {
        guard let port = URLComponents(string: try TestEnvironment.databaseURL())?.port else {
            throw NoPort()
        }
        return port
    }
}
