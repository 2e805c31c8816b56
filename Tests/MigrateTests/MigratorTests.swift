import Foundation
import Migrate
import Postgres
import Testing
import TestSupport

@Suite struct MigratorTests {
    private func connect(_ url: String) throws -> Connection {
        try Connection(configuration: PostgresConfiguration(url: url, poolSize: 1))
    }

    private func tableExists(_ connection: Connection, _ name: String) throws -> Bool {
        try connection.query("SELECT to_regclass($1) IS NOT NULL AS present", [.text(name)]).rows[0]["present"] == "t"
    }

    @Test func theBundledMigrationsApplyOnAFreshDatabaseAndASecondRunIsANoOp() throws {
        let url = try TestDatabase.create(prefix: "migrate")
        let bundled = try Migration.bundled()
        #expect(!bundled.isEmpty)
        let migrator = Migrator(migrations: bundled)

        let first = try migrator.run(on: try connect(url))
        #expect(first.applied == bundled.map(\.version))
        #expect(first.alreadyApplied == [])

        let connection = try connect(url)
        let before = try connection.query(
            "SELECT version, checksum, applied_at::text AS at FROM schema_migrations ORDER BY 1").rows
        let second = try migrator.run(on: connection)
        #expect(second.applied == [])
        #expect(second.alreadyApplied == bundled.map(\.version))
        let after = try connection.query(
            "SELECT version, checksum, applied_at::text AS at FROM schema_migrations ORDER BY 1").rows
        #expect(after.map { $0["at"] } == before.map { $0["at"] })
        #expect(after.map { $0["checksum"] } == bundled.map { $0.checksum })
    }

    @Test func anEditedMigrationIsRefusedAndNothingRuns() throws {
        let url = try TestDatabase.create(prefix: "migrate")
        let one = Migration(version: 1, name: "one", sql: "CREATE TABLE one (id int)")
        let two = Migration(version: 2, name: "two", sql: "CREATE TABLE two (id int)")
        _ = try Migrator(migrations: [one, two]).run(on: try connect(url))

        let editedTwo = Migration(version: 2, name: "two", sql: "CREATE TABLE two (id bigint)")
        let three = Migration(version: 3, name: "three", sql: "CREATE TABLE three (id int)")
        let connection = try connect(url)
        #expect {
            try Migrator(migrations: [one, editedTwo, three]).run(on: connection)
        } throws: { error in
            guard case .edited(let version, let name, let applied, let file) = error as? MigrationError else {
                return false
            }
            return version == 2 && name == "two" && applied == two.checksum && file == editedTwo.checksum
        }
        #expect(try tableExists(connection, "three") == false)
    }

    @Test func aFailingMigrationLeavesNoTraceAndStopsTheRun() throws {
        let url = try TestDatabase.create(prefix: "migrate")
        let one = Migration(version: 1, name: "one", sql: "CREATE TABLE one (id int)")
        let broken = Migration(version: 2, name: "broken",
                               sql: "CREATE TABLE half (id int); SELECT * FROM missing_table;")
        let three = Migration(version: 3, name: "three", sql: "CREATE TABLE three (id int)")
        let connection = try connect(url)
        #expect(throws: PostgresError.self) { try Migrator(migrations: [one, broken, three]).run(on: connection) }
        #expect(try tableExists(connection, "one"))
        #expect(try tableExists(connection, "half") == false)
        #expect(try tableExists(connection, "three") == false)
        let versions = try connection.query("SELECT version FROM schema_migrations ORDER BY 1").rows
            .map { $0["version"] }
        #expect(versions == ["1"])
    }

    @Test func twoMigratorsAtOnceApplyEachMigrationExactlyOnce() throws {
        let url = try TestDatabase.create(prefix: "migrate")
        // Not idempotent on purpose: without the advisory lock the second runner fails on "already exists".
        let migrations = (1...5).map {
            Migration(version: $0, name: "step\($0)", sql: "CREATE TABLE step\($0) (id int); SELECT pg_sleep(0.05);")
        }
        let migrator = Migrator(migrations: migrations)
        let connections = try (0..<2).map { _ in try connect(url) }
        let outcomes = ResultsBox()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            outcomes.add(Result { try migrator.run(on: connections[index]) })
        }
        let reports = try outcomes.all.map { try $0.get() }
        #expect(reports.map(\.applied.count).sorted() == [0, 5])
        let count = try connections[0].query("SELECT count(*) AS n FROM schema_migrations").rows[0]["n"]
        #expect(count == "5")
    }

    @Test func aDatabaseMigratedByANewerBuildIsRefused() throws {
        let url = try TestDatabase.create(prefix: "migrate")
        let one = Migration(version: 1, name: "one", sql: "CREATE TABLE one (id int)")
        let two = Migration(version: 2, name: "two", sql: "CREATE TABLE two (id int)")
        _ = try Migrator(migrations: [one, two]).run(on: try connect(url))
        #expect(throws: MigrationError.unknownApplied(version: 2, name: "two")) {
            try Migrator(migrations: [one]).run(on: try connect(url))
        }
    }

    /// Versions need not be consecutive (work numbered in parallel leaves gaps until it is merged), and a version
    /// that arrives later than a higher one already applied is applied then, after it: there is no ordering check.
    @Test func aGapInVersionsIsAcceptedAndAVersionFillingItLaterIsAppliedThen() throws {
        let url = try TestDatabase.create(prefix: "migrate")
        let table = { (version: Int) in
            Migration(version: version, name: "v\(version)", sql: "CREATE TABLE v\(version) (id int)")
        }
        let first = try Migrator(migrations: [table(1), table(2), table(4)]).run(on: try connect(url))
        #expect(first.applied == [1, 2, 4])
        let second = try Migrator(migrations: [table(1), table(2), table(3), table(4)]).run(on: try connect(url))
        #expect(second.applied == [3])
        #expect(second.alreadyApplied == [1, 2, 4])
    }

    @Test func fileNamesParseIntoVersionAndName() {
        #expect(Migration.parse(fileName: "0001_baseline.sql")! == (1, "baseline"))
        #expect(Migration.parse(fileName: "0012_add_codes.sql")! == (12, "add_codes"))
        #expect(Migration.parse(fileName: "README.md") == nil)
        #expect(Migration.parse(fileName: "0000_zero.sql") == nil)
        #expect(Migration.parse(fileName: "abc_name.sql") == nil)
        #expect(Migration.parse(fileName: "0003_.sql") == nil)
    }
}

/// Collects results from concurrent closures.
final class ResultsBox: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<Migrator.Report, any Error>] = []
    func add(_ result: Result<Migrator.Report, any Error>) { lock.lock(); results.append(result); lock.unlock() }
    var all: [Result<Migrator.Report, any Error>] { lock.lock(); defer { lock.unlock() }; return results }
}
