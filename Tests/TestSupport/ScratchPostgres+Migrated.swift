import Foundation
import Migrate
import Postgres

extension ScratchPostgres {
    /// Sets this private cluster up as `infra/dev` does (roles `handoff` and `handoff_app`, database `handoff` owned
    /// by `handoff`), applies every bundled migration as the owner, and returns its URLs.
    public func migratedDatabase() throws -> ScratchDatabase {
        let admin = try Connection(configuration: PostgresConfiguration(url: url))
        defer { admin.close() }
        try admin.query("CREATE ROLE handoff LOGIN")
        try admin.query("CREATE ROLE handoff_app LOGIN")
        try admin.query("CREATE DATABASE handoff OWNER handoff")
        let base = "postgresql://%@127.0.0.1:\(port)/handoff"
        let database = ScratchDatabase(ownerURL: base.replacingOccurrences(of: "%", with: "handoff"),
                                       appURL: base.replacingOccurrences(of: "%", with: "handoff_app"),
                                       adminURL: base.replacingOccurrences(of: "%", with: "postgres"))
        let owner = try Connection(configuration: PostgresConfiguration(url: database.ownerURL))
        defer { owner.close() }
        _ = try Migrator(migrations: Migration.bundled()).run(on: owner)
        return database
    }
}
