import Domain
import EventStore
import Foundation
import Postgres

/// Records an app install once (`POST /v1/m/install`): `AppInstallRecorded` on the install's own stream. A re-sent
/// install — even one racing the first — records nothing and answers the tier stored first.
public struct RecordInstall: Sendable {
    private let log: EventLog

    init(log: EventLog) { self.log = log }

    /// What recording answered: the install's tier and whether this call recorded it.
    public struct Outcome: Sendable, Equatable {
        public var tier: InstallTier
        public var recorded: Bool
    }

    /// Records `install` for the app of `orgId`, unless that install is already recorded.
    public func run(_ install: AppInstallRecorded, orgId: OrgID, metadata: EventMetadata) throws -> Outcome {
        guard case .success(let app) = AppID.parse(install.appId) else {
            throw InconsistentState("an install names a malformed app id")
        }
        return try log.transact(in: .org(orgId.uuid)) { transaction in
            if let stored = try transaction.connection.query("""
                SELECT tier FROM app_installs WHERE app_id = $1::uuid AND install_hash = $2
                """, [.text(install.appId), .text(install.installHash)]).rows.first {
                guard let tier = InstallTier(rawValue: try stored.string("tier")) else {
                    throw InconsistentState("a stored install tier does not read back")
                }
                return Outcome(tier: tier, recorded: false)
            }
            // `.noStream`: a racing first recording makes this one retry, and the retry reads the racer's row.
            try transaction.append(
                org: orgId.uuid, stream: IngestStreams.install(app: app, installHash: install.installHash),
                expectedVersion: .noStream, events: [try NewEvent(install)], metadata: metadata)
            return Outcome(tier: install.tier, recorded: true)
        }
    }
}
