import Crypto
import Domain
import EventStore
import Foundation

/// Issues another secret key for a project (`handoff admin key create`): `SecretKeyCreated`; refuses 404 for a
/// project that does not exist (`KeyCreation.decide`).
public struct CreateSecretKey: Sendable {
    private let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// Records the new key of `project`; returns it (shown once).
    public func run(project: ProjectID, metadata: EventMetadata) throws -> SecretKey {
        let key = SecretKey(randomBytes: SecureRandom.bytes(SecretKey.randomByteCount))
        try log.transact(in: .orgOf(.project, .text(project.description))) { transaction in
            let current = try ProjectLookup.project(project, org: nil, on: transaction.connection, forUpdate: true)
            _ = try KeyCreation.decide(projectExists: current != nil).get()
            guard let current else { return }
            try transaction.append(
                org: current.orgId.uuid, stream: TenantStreams.project(project), expectedVersion: .any,
                events: [try NewEvent(SecretKeyCreated(key, project: project))], metadata: metadata)
        }
        return key
    }
}
