import Foundation

/// A fresh, empty database in the shared test cluster, owned by the `handoff` role, for tests that need
/// a schema of their own (migrations). Created with psql as the superuser.
public enum TestDatabase {
    /// Creates `prefix_<random>` and returns its URL (same host and role as `HANDOFF_TEST_DATABASE_URL`).
    public static func create(prefix: String = "test") throws -> String {
        let name = "\(prefix)_\(UInt32.random(in: 0...UInt32.max))"
        let admin = try TestEnvironment.adminDatabaseURL()
        try Shell.run([try TestEnvironment.postgresBin() + "/psql", admin, "-v", "ON_ERROR_STOP=1", "-qc",
                       "CREATE DATABASE \(name) OWNER handoff"])
        let base = try TestEnvironment.databaseURL()
        guard let slash = base.lastIndex(of: "/") else { return base }
        return String(base[...slash]) + name
    }
}
