import Migrate
import Postgres

extension ScratchDatabase {
    /// A fresh database with every bundled migration applied as the owner, as `handoff migrate` leaves it.
    public static func migrated(prefix: String = "test") throws -> ScratchDatabase {
        let database = try create(prefix: prefix)
        let owner = try Connection(configuration: PostgresConfiguration(url: database.ownerURL))
        defer { owner.close() }
        _ = try Migrator(migrations: Migration.bundled()).run(on: owner)
        return database
    }
}
