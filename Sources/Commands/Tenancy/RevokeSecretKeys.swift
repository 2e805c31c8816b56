import Domain
import EventStore
import Foundation

/// Revokes a project's live keys by visible prefix (`handoff admin key revoke`): one `SecretKeyRevoked` per key;
/// refuses 404 for an unknown project or when no live key has the prefix (`KeyRevocation.decide`).
public struct RevokeSecretKeys: Sendable {
    private let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// Revokes every live key of `project` whose visible prefix is `prefix`; returns how many.
    public func run(project: ProjectID, prefix: String, metadata: EventMetadata) throws -> Int {
        try log.transact(in: .orgOf(.project, .text(project.description))) { transaction in
            let current = try ProjectLookup.project(project, org: nil, on: transaction.connection, forUpdate: true)
            _ = try KeyCreation.decide(projectExists: current != nil).get()
            guard let current else { return 0 }
            let live = try transaction.connection.query("""
                SELECT encode(key_hash, 'hex') AS key_hash FROM secret_keys
                WHERE project_id = $1::uuid AND org_id = $2::uuid AND prefix = $3 AND revoked_at IS NULL
                ORDER BY created_at, key_hash
                """, [.text(project.description), .text(current.orgId.description), .text(prefix)])
                .rows.map { try $0.string("key_hash") }
            let hashes = try KeyRevocation.decide(liveKeyHashes: live).get()
            try transaction.append(
                org: current.orgId.uuid, stream: TenantStreams.project(project), expectedVersion: .any,
                events: try hashes.map {
                    try NewEvent(SecretKeyRevoked(SecretKeyFacts(projectId: project, keyHash: $0, prefix: prefix)))
                },
                metadata: metadata)
            return hashes.count
        }
    }
}
