import Crypto
import Foundation

/// One numbered SQL file: `NNNN_name.sql`, applied once, in version order, inside its own transaction.
public struct Migration: Sendable, Equatable {
    /// The number at the start of the file name.
    public let version: Int
    /// The rest of the file name, without `.sql`.
    public let name: String
    /// The file's text, run with the simple query protocol (several statements allowed).
    public let sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// SHA-256 of the file's bytes, lowercase hex: an applied migration whose checksum changed was edited.
    public var checksum: String { Hex.encode(SHA256.hash(Array(sql.utf8))) }

    /// Parses a file name like `0003_add_codes.sql` into version and name; nil for anything else.
    public static func parse(fileName: String) -> (version: Int, name: String)? {
        guard fileName.hasSuffix(".sql") else { return nil }
        let stem = fileName.dropLast(4)
        guard let underscore = stem.firstIndex(of: "_"),
              let version = Int(stem[..<underscore]), version > 0 else { return nil }
        let name = String(stem[stem.index(after: underscore)...])
        return name.isEmpty ? nil : (version, name)
    }

    /// The migrations shipped with this build (resources of the `Migrate` target), sorted by version.
    public static func bundled() throws -> [Migration] {
        guard let folder = Bundle.module.resourceURL?.appendingPathComponent("Migrations") else {
            throw MigrationError.missingResources
        }
        return try load(from: folder)
    }

    /// Reads every `NNNN_name.sql` file of `folder`; two files with one version are refused.
    public static func load(from folder: URL) throws -> [Migration] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        var migrations: [Migration] = []
        for fileName in names.sorted() {
            guard let (version, name) = parse(fileName: fileName) else { continue }
            let sql = try String(contentsOf: folder.appendingPathComponent(fileName), encoding: .utf8)
            migrations.append(Migration(version: version, name: name, sql: sql))
        }
        migrations.sort { $0.version < $1.version }
        for (previous, next) in zip(migrations, migrations.dropFirst()) where previous.version == next.version {
            throw MigrationError.duplicateVersion(next.version)
        }
        return migrations
    }
}
