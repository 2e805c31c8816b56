import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Organizations, projects and secret keys as commands on the event store and reads of their projections.
///
/// Every read of a project takes the org id, so no caller can reach another organization's project by its id.
/// Used by the S2S edge (key lookup), the project endpoints and `handoff admin`.
public struct TenantDirectory: Sendable {
    public let store: EventStore

    public init(store: EventStore) { self.store = store }

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

        private typealias Key = JSONField
    }

    /// Who a live secret key speaks for.
    public struct KeyHolder: Sendable, Equatable {
        public var orgId: OrgID
        public var projectId: ProjectID
        public var prefix: String
    }

    /// Why a tenancy command did not happen.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case unknownOrganization
        case unknownProject
        case noLiveKeyWithPrefix
        case invalid(FieldRefusal)

        public var description: String {
            switch self {
            case .unknownOrganization: return "no organization has this id"
            case .unknownProject: return "no project has this id"
            case .noLiveKeyWithPrefix: return "the project has no live key with this prefix"
            case .invalid(let refusal): return refusal.message
            }
        }
    }

    // MARK: - Commands

    /// Records `OrganizationCreated` in the new org's own log and returns its id.
    public func createOrganization(name: String, metadata: EventMetadata) throws -> OrgID {
        if case .failure(let refusal) = ProjectSettings.new(name: name, nameField: "--name", change: .init()) {
            throw Refusal.invalid(refusal)
        }
        let org = OrgID(randomBytes: SecureRandom.bytes(16))
        try store.append(org: org.uuid, stream: TenantStreams.organization, expectedVersion: .noStream,
                         events: [NewEvent(OrganizationCreated(orgId: org, name: name))], metadata: metadata)
        return org
    }

    /// Records `ProjectCreated` and its first `SecretKeyCreated`; returns the project id and the key (shown once).
    public func createProject(
        org: OrgID, settings: ProjectSettings, metadata: EventMetadata
    ) throws -> (ProjectID, SecretKey) {
        let project = ProjectID(randomBytes: SecureRandom.bytes(16))
        let key = SecretKey(randomBytes: SecureRandom.bytes(SecretKey.randomByteCount))
        try store.transact { transaction in
            guard try organizationExists(org, on: transaction.connection) else { throw Refusal.unknownOrganization }
            try transaction.append(
                org: org.uuid, stream: TenantStreams.project(project), expectedVersion: .noStream,
                events: [try NewEvent(ProjectCreated(projectId: project, settings: settings)),
                         try NewEvent(Self.keyCreated(key, project: project))],
                metadata: metadata)
        }
        return (project, key)
    }

    /// Applies `change` to the project's settings (of `org` when given), records `ProjectSettingsChanged` when
    /// something changed, and returns the project as it now is.
    public func updateProject(
        _ project: ProjectID, org: OrgID?, change: ProjectSettingsChange, metadata: EventMetadata
    ) throws -> Project {
        try store.transact { transaction in
            guard let current = try self.project(project, org: org, on: transaction.connection, forUpdate: true) else {
                throw Refusal.unknownProject
            }
            let next: ProjectSettings
            switch current.settings.applying(change) {
            case .success(let settings): next = settings
            case .failure(let refusal): throw Refusal.invalid(refusal)
            }
            guard next != current.settings else { return current }
            try transaction.append(
                org: current.orgId.uuid, stream: TenantStreams.project(project), expectedVersion: .any,
                events: [try NewEvent(ProjectSettingsChanged(projectId: project, settings: next))], metadata: metadata)
            return Project(projectId: project, orgId: current.orgId, settings: next)
        }
    }

    /// Issues another key for the project; returns it (shown once).
    public func createKey(project: ProjectID, metadata: EventMetadata) throws -> SecretKey {
        let key = SecretKey(randomBytes: SecureRandom.bytes(SecretKey.randomByteCount))
        try store.transact { transaction in
            guard let current = try self.project(project, org: nil, on: transaction.connection, forUpdate: true) else {
                throw Refusal.unknownProject
            }
            try transaction.append(
                org: current.orgId.uuid, stream: TenantStreams.project(project), expectedVersion: .any,
                events: [try NewEvent(Self.keyCreated(key, project: project))], metadata: metadata)
        }
        return key
    }

    /// Revokes every live key of the project whose visible prefix is `prefix`; returns how many.
    public func revokeKeys(project: ProjectID, prefix: String, metadata: EventMetadata) throws -> Int {
        try store.transact { transaction in
            guard let current = try self.project(project, org: nil, on: transaction.connection, forUpdate: true) else {
                throw Refusal.unknownProject
            }
            let hashes = try transaction.connection.query("""
                SELECT encode(key_hash, 'hex') AS key_hash FROM secret_keys
                WHERE project_id = $1::uuid AND org_id = $2::uuid AND prefix = $3 AND revoked_at IS NULL
                ORDER BY created_at, key_hash
                """, [.text(project.description), .text(current.orgId.description), .text(prefix)])
                .rows.map { try $0.string("key_hash") }
            guard !hashes.isEmpty else { throw Refusal.noLiveKeyWithPrefix }
            try transaction.append(
                org: current.orgId.uuid, stream: TenantStreams.project(project), expectedVersion: .any,
                events: try hashes.map {
                    try NewEvent(SecretKeyRevoked(projectId: project, keyHash: $0, prefix: prefix))
                },
                metadata: metadata)
            return hashes.count
        }
    }

    // MARK: - Reads

    /// The org and project of a live key, found by SHA-256 of its text; nil for an unknown or revoked key.
    /// One indexed query, no cache: a revocation counts from its commit on.
    public func holder(of key: SecretKey) throws -> KeyHolder? {
        let hash = Hex.encode(SHA256.hash(key.lookupMaterial))
        let rows = try store.pool.withConnection { connection in
            try connection.queryPrepared("""
                SELECT org_id::text AS org_id, project_id::text AS project_id, prefix FROM secret_keys
                WHERE key_hash = decode($1, 'hex') AND revoked_at IS NULL
                """, [.text(hash)]).rows
        }
        guard let row = rows.first,
              case .success(let org) = OrgID.parse(try row.string("org_id")),
              case .success(let project) = ProjectID.parse(try row.string("project_id"))
        else { return nil }
        return KeyHolder(orgId: org, projectId: project, prefix: try row.string("prefix"))
    }

    /// The project `id` of `org`, or nil.
    public func project(_ id: ProjectID, org: OrgID) throws -> Project? {
        try store.pool.withConnection { try project(id, org: org, on: $0, forUpdate: false) }
    }

    /// The project `id` of whichever organization, or nil: for public routes, where a device names the project.
    public func publicProject(_ id: ProjectID) throws -> Project? {
        try store.pool.withConnection { try project(id, org: nil, on: $0, forUpdate: false) }
    }

    private func project(_ id: ProjectID, org: OrgID?, on connection: Connection, forUpdate: Bool) throws -> Project? {
        let rows = try connection.query("""
            SELECT org_id::text AS org_id, name, paywall_url, return_scheme, android_package, ios_bundle_id,
                   fingerprint, tracker, tracker_link
            FROM projects WHERE project_id = $1::uuid AND ($2::uuid IS NULL OR org_id = $2::uuid)
            \(forUpdate ? "FOR UPDATE" : "")
            """, [.text(id.description), .optional(org?.description)]).rows
        guard let row = rows.first, case .success(let orgId) = OrgID.parse(try row.string("org_id")) else {
            return nil
        }
        let settings = ProjectSettings(
            name: try row.string("name"), paywallUrl: row["paywall_url"], returnScheme: row["return_scheme"],
            androidPackage: row["android_package"], iosBundleId: row["ios_bundle_id"],
            fingerprint: try row.bool("fingerprint"),
            tracker: ProjectSettings.Tracker(rawValue: try row.string("tracker")) ?? .none,
            trackerLink: row["tracker_link"])
        return Project(projectId: id, orgId: orgId, settings: settings)
    }

    private func organizationExists(_ org: OrgID, on connection: Connection) throws -> Bool {
        try !connection.query("SELECT 1 FROM organizations WHERE org_id = $1::uuid", [.text(org.description)])
            .rows.isEmpty
    }

    private static func keyCreated(_ key: SecretKey, project: ProjectID) -> SecretKeyCreated {
        SecretKeyCreated(projectId: project, keyHash: Hex.encode(SHA256.hash(key.lookupMaterial)),
                         prefix: key.visiblePrefix)
    }
}
