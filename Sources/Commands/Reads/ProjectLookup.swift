import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Reads of the tenancy projections (`projects`, `secret_keys`): a project with its settings, and who a secret key
/// speaks for.
///
/// Every read of a project takes the org id, so no caller can reach another organization's project by its id —
/// except `publicProject`, for public routes where a device names the project.
public struct ProjectLookup: Sendable {
    /// A project with its organization and settings, as the projection holds it.
    public struct Project: Sendable, Equatable, Encodable {
        public var projectId: ProjectID
        public var orgId: OrgID
        public var settings: ProjectSettings

        /// `{"projectId","orgId", …settings}`: the shape of `GET /s2s/v1/project` and `admin project update`.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(projectId.description, forKey: Key("projectId"))
            try container.encode(orgId.description, forKey: Key("orgId"))
            try settings.encode(to: encoder)
        }

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ name: String) { stringValue = name }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
    }

    /// Who a live secret key speaks for.
    public struct KeyHolder: Sendable, Equatable {
        public var orgId: OrgID
        public var projectId: ProjectID
        public var prefix: String

        public init(orgId: OrgID, projectId: ProjectID, prefix: String) {
            self.orgId = orgId
            self.projectId = projectId
            self.prefix = prefix
        }
    }

    private let pool: Pool

    public init(pool: Pool) { self.pool = pool }

    /// The org and project of a live key, found by SHA-256 of its text; nil for an unknown or revoked key.
    /// One indexed query, no cache: a revocation counts from its commit on. Refuses 503 when the database cannot
    /// be reached (the key cannot be checked: neither a 401 nor a 500 would be true). The org is not known before
    /// the key is: `secret_key_holder` (migration 0015) answers past row-level security for this one hash.
    public func holder(of key: SecretKey) throws -> KeyHolder? {
        let hash = Hex.encode(SHA256.hash(key.lookupMaterial))
        let rows: [Row]
        do {
            rows = try pool.withConnection { connection in
                try connection.queryPrepared("""
                    SELECT org_id::text AS org_id, project_id::text AS project_id, prefix
                    FROM secret_key_holder(decode($1, 'hex'))
                    """, [.text(hash)]).rows
            }
        } catch {
            throw DatabaseOutage.refusal(for: error) ?? error
        }
        guard let row = rows.first,
              case .success(let org) = OrgID.parse(try row.string("org_id")),
              case .success(let project) = ProjectID.parse(try row.string("project_id"))
        else { return nil }
        return KeyHolder(orgId: org, projectId: project, prefix: try row.string("prefix"))
    }

    /// The project `id` of `org`, or nil. One round trip (the org scope pipelined with the read).
    public func project(_ id: ProjectID, org: OrgID) throws -> Project? {
        try pool.withConnection { try Self.project(id, org: org, on: $0, forUpdate: false, in: .org(org.uuid)) }
    }

    /// The project `id` of whichever organization, or nil: for public routes, where a device names the project.
    /// The org comes from the public id (`project_org`, migration 0015), in the same round trip as the read.
    public func publicProject(_ id: ProjectID) throws -> Project? {
        try pool.withConnection {
            try Self.project(id, org: nil, on: $0, forUpdate: false, in: .orgOf(.project, .text(id.description)))
        }
    }

    /// The project `id` (of `org` when given) on `connection`, locked when `forUpdate`; for the tenancy commands.
    /// `scope`: read under it in one round trip (a pooled connection); nil inside a transaction already scoped.
    static func project(_ id: ProjectID, org: OrgID?, on connection: Connection, forUpdate: Bool,
                        in scope: OrgScope? = nil) throws -> Project?
    {
        let sql = """
            SELECT org_id::text AS org_id, name, paywall_url, return_scheme, android_package, ios_bundle_id,
                   fingerprint, tracker, tracker_link, email_verification, landing_url
            FROM projects WHERE project_id = $1::uuid AND ($2::uuid IS NULL OR org_id = $2::uuid)
            \(forUpdate ? "FOR UPDATE" : "")
            """
        let parameters: [PostgresValue] = [.text(id.description), .optional(org?.description)]
        let rows = try scope.map { try connection.queryPrepared(sql, parameters, in: $0) }?.rows
            ?? connection.query(sql, parameters).rows
        guard let row = rows.first, case .success(let orgId) = OrgID.parse(try row.string("org_id")) else {
            return nil
        }
        let settings = ProjectSettings(
            name: try row.string("name"), paywallUrl: row["paywall_url"], returnScheme: row["return_scheme"],
            androidPackage: row["android_package"], iosBundleId: row["ios_bundle_id"],
            fingerprint: try row.bool("fingerprint"),
            tracker: ProjectSettings.Tracker(rawValue: try row.string("tracker")) ?? .none,
            trackerLink: row["tracker_link"],
            emailVerification: EmailVerification(rawValue: try row.string("email_verification")) ?? .payment,
            landingUrl: row["landing_url"])
        return Project(projectId: id, orgId: orgId, settings: settings)
    }
}
