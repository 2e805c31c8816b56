import Postgres

/// Applies pending migrations under a Postgres advisory lock, so two processes never migrate at once.
///
/// Each migration runs in its own transaction together with its `schema_migrations` row. Before applying
/// anything the runner compares the checksums of applied migrations with the files and refuses to go on
/// when one was edited. Running it again with nothing pending changes nothing.
public struct Migrator: Sendable {
    /// Key of the session-level advisory lock held while migrating (`pg_advisory_lock`).
    public static let advisoryLockKey: Int64 = 0x4841_4E44_4F46_46 // "HANDOFF"

    /// What one run did.
    public struct Report: Sendable, Equatable {
        /// Versions applied by this run, in order.
        public var applied: [Int]
        /// Versions that were already applied.
        public var alreadyApplied: [Int]
    }

    public let migrations: [Migration]

    public init(migrations: [Migration]) {
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    /// Runs the migrations on `connection` (a connection of the owner role, not of a pool in use elsewhere).
    ///
    /// `progress` receives one line per applied migration.
    public func run(on connection: Connection, progress: (String) -> Void = { _ in }) throws -> Report {
        try connection.query("SELECT pg_advisory_lock($1)", [.text(String(Self.advisoryLockKey))])
        defer { _ = try? connection.query("SELECT pg_advisory_unlock($1)", [.text(String(Self.advisoryLockKey))]) }

        try connection.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version    integer PRIMARY KEY,
                name       text NOT NULL,
                checksum   text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """)
        let rows = try connection.query("SELECT version, name, checksum FROM schema_migrations ORDER BY version").rows
        var applied: [Int: (name: String, checksum: String)] = [:]
        for row in rows {
            applied[try row.int("version")] = (try row.string("name"), try row.string("checksum"))
        }
        let byVersion = Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0) })
        for (version, record) in applied.sorted(by: { $0.key < $1.key }) {
            guard let migration = byVersion[version] else {
                throw MigrationError.unknownApplied(version: version, name: record.name)
            }
            guard migration.checksum == record.checksum else {
                throw MigrationError.edited(version: version, name: migration.name,
                                            appliedChecksum: record.checksum, fileChecksum: migration.checksum)
            }
        }

        var report = Report(applied: [], alreadyApplied: applied.keys.sorted())
        for migration in migrations where applied[migration.version] == nil {
            try connection.execute("BEGIN")
            do {
                try connection.execute(migration.sql)
                try connection.query(
                    "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                    [.text(String(migration.version)), .text(migration.name), .text(migration.checksum)])
                try connection.execute("COMMIT")
            } catch {
                _ = try? connection.execute("ROLLBACK")
                throw error
            }
            report.applied.append(migration.version)
            progress("applied \(migration.version)_\(migration.name)")
        }
        return report
    }
}
