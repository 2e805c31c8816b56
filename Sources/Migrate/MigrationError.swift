/// Why migrating stopped; every case names what an operator must look at.
public enum MigrationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `Migrations` resource folder is not next to the executable.
    case missingResources
    /// Two files share one version number.
    case duplicateVersion(Int)
    /// An applied migration's file changed since it was applied.
    case edited(version: Int, name: String, appliedChecksum: String, fileChecksum: String)
    /// The database has a migration this build does not know (a newer build migrated it).
    case unknownApplied(version: Int, name: String)

    public var description: String {
        switch self {
        case .missingResources:
            return "the Migrations resource folder was not found next to the executable"
        case .duplicateVersion(let version):
            return "two migration files have version \(version)"
        case .edited(let version, let name, let applied, let file):
            return "migration \(version)_\(name) was edited after it was applied "
                + "(applied checksum \(applied.prefix(12))…, file \(file.prefix(12))…); add a new migration instead"
        case .unknownApplied(let version, let name):
            return "the database has migration \(version)_\(name), which this build does not ship; run a newer build"
        }
    }
}
