import Foundation

/// Where the servers started by `infra/test` listen, read from the variables that script exports.
public enum TestEnvironment {
    /// A missing variable: the tests were started without `infra/test`.
    public struct Missing: Error, CustomStringConvertible {
        public let variable: String
        public var description: String { "\(variable) is not set: run the tests with infra/test" }
    }

    /// The application database (`handoff` role and database).
    public static func databaseURL() throws -> String { try value("HANDOFF_TEST_DATABASE_URL") }
    /// The application database as the application role `handoff_app` (INSERT and SELECT on the event log).
    public static func appDatabaseURL() throws -> String { try value("HANDOFF_TEST_APP_DATABASE_URL") }
    /// The same cluster as the superuser, for tests that terminate backends or create databases.
    public static func adminDatabaseURL() throws -> String { try value("HANDOFF_TEST_ADMIN_DATABASE_URL") }
    /// The shared Redis (`redis://127.0.0.1:PORT`).
    public static func redisURL() throws -> String { try value("HANDOFF_TEST_REDIS_URL") }
    /// The folder holding Postgres' programs (`initdb`, `pg_ctl`, `postgres`).
    public static func postgresBin() throws -> String { try value("HANDOFF_TEST_PG_BIN") }
    /// The OS user that may run Postgres (never root).
    public static func postgresOSUser() throws -> String { try value("HANDOFF_TEST_PG_OS_USER") }
    /// A folder that lives as long as the test run; the script deletes it afterwards.
    public static func scratchFolder() throws -> String { try value("HANDOFF_TEST_SCRATCH") }

    static func value(_ name: String) throws -> String {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else {
            throw Missing(variable: name)
        }
        return value
    }
}
