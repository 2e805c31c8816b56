/// A fresh database (from `TestDatabase.create`) with its URLs for the owner, the application role and the
/// superuser. Migrate it as the owner; run the service's code as the application role.
public struct ScratchDatabase: Sendable {
    /// Wraps the URLs of a database someone else created (e.g. `ScratchPostgres.migratedDatabase()`).
    public init(ownerURL: String, appURL: String, adminURL: String) {
        self.ownerURL = ownerURL
        self.appURL = appURL
        self.adminURL = adminURL
    }

    /// As `handoff`, the owner: migrations and test fixtures.
    public let ownerURL: String
    /// As `handoff_app`: what `serve` and `work` use.
    public let appURL: String
    /// As the superuser: for tests that must go behind the schema's back.
    public let adminURL: String

    /// Creates `prefix_<random>` owned by `handoff`.
    public static func create(prefix: String = "test") throws -> ScratchDatabase {
        let ownerURL = try TestDatabase.create(prefix: prefix)
        guard let slash = ownerURL.lastIndex(of: "/") else {
            return ScratchDatabase(ownerURL: ownerURL, appURL: try TestEnvironment.appDatabaseURL(),
                                   adminURL: try TestEnvironment.adminDatabaseURL())
        }
        let name = String(ownerURL[ownerURL.index(after: slash)...])
        return ScratchDatabase(ownerURL: ownerURL,
                               appURL: try replacingDatabase(in: TestEnvironment.appDatabaseURL(), with: name),
                               adminURL: try replacingDatabase(in: TestEnvironment.adminDatabaseURL(), with: name))
    }

    private static func replacingDatabase(in url: String, with name: String) -> String {
        guard let slash = url.lastIndex(of: "/") else { return url }
        return String(url[...slash]) + name
    }
}
