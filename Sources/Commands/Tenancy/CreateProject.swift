import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Creates a project in an organization (`handoff admin project create`): `ProjectCreated` and its first
/// `SecretKeyCreated`; refuses 404 for an organization that does not exist (`ProjectCreation.decide`).
public struct CreateProject: Sendable {
    private let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// Records the project with `settings` in `org`; returns its id and its first key (shown once).
    public func run(org: OrgID, settings: ProjectSettings, metadata: EventMetadata) throws -> (ProjectID, SecretKey) {
        let project = ProjectID(randomBytes: SecureRandom.bytes(16))
        let key = SecretKey(randomBytes: SecureRandom.bytes(SecretKey.randomByteCount))
        try log.transact(in: .org(org.uuid)) { transaction in
            let exists = try !transaction.connection.query(
                "SELECT 1 FROM organizations WHERE org_id = $1::uuid", [.text(org.description)]).rows.isEmpty
            _ = try ProjectCreation.decide(organizationExists: exists).get()
            try transaction.append(
                org: org.uuid, stream: TenantStreams.project(project), expectedVersion: .noStream,
                events: [try NewEvent(ProjectCreated(ProjectSettingsFacts(projectId: project, settings: settings))),
                         try NewEvent(SecretKeyCreated(key, project: project))],
                metadata: metadata)
        }
        return (project, key)
    }
}

extension SecretKeyCreated {
    /// The event of a freshly issued `key`: its SHA-256 and visible prefix, never the key.
    init(_ key: SecretKey, project: ProjectID) {
        self.init(SecretKeyFacts(projectId: project, keyHash: Hex.encode(SHA256.hash(key.lookupMaterial)),
                                 prefix: key.visiblePrefix))
    }
}
