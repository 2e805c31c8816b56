import Domain
import EventStore
import Foundation
import Postgres

/// The `identity` install tier (docs/app-ingest.md "Identity"): whether an install was identified with attribution
/// granted, and the move of a recorded install's tier to `identity` when a batch identifies it (`AppInstallIdentified`
/// on the install's stream, folded by `InstallProjection`).
public struct IdentifyInstall: Sendable {
    private let log: EventLog

    init(log: EventLog) { self.log = log }

    /// Whether install `installHash` of app `app` holds an account token whose latest batch granted attribution: what
    /// `POST /v1/m/install` decides the `identity` tier from when batches came before the install.
    public func isIdentified(org: OrgID, app: AppID, installHash: String) throws -> Bool {
        let results = try log.pool.withConnection { connection in
            try connection.pipeline([
                OrgScope.org(org.uuid).statement,
                Statement("""
                    SELECT attribution FROM app_install_identities WHERE app_id = $1::uuid AND install_hash = $2
                    ORDER BY last_seen_at DESC LIMIT 1
                    """, [.text(app.description), .text(installHash)], prepared: true),
            ])
        }
        return try results.last?.rows.first?.bool("attribution") ?? false
    }

    /// After a stored batch with an identity: moves the recorded install's tier to `identity` if the precedence lets
    /// it (`InstallIdentity.identifiedTier`); answers the new tier, or nil when nothing moved (not recorded yet, a
    /// higher tier, attribution not granted).
    @discardableResult
    public func run(org: OrgID, project: ProjectID, app: AppID, installHash: String, attributionGranted: Bool,
                    metadata: EventMetadata) throws -> InstallTier? {
        guard attributionGranted, let current = try tier(org: org, app: app, installHash: installHash) else {
            return nil
        }
        return try run(org: org, project: project, app: app, installHash: installHash, recordedTier: current,
                       metadata: metadata)
    }

    /// `run` for a batch whose write already read the install's tier (`IngestRowStore.Written`, attribution granted):
    /// no round trip when the precedence lets nothing move, which is the common case.
    @discardableResult
    public func run(org: OrgID, project: ProjectID, app: AppID, installHash: String, recordedTier current: InstallTier,
                    metadata: EventMetadata) throws -> InstallTier? {
        guard InstallIdentity.identifiedTier(current: current, attributionGranted: true) != nil else { return nil }
        return try log.transact(in: .org(org.uuid)) { transaction in
            let stream = IngestStreams.install(app: app, installHash: installHash)
            guard let row = try transaction.connection.query("""
                SELECT tier FROM app_installs WHERE app_id = $1::uuid AND install_hash = $2
                """, [.text(app.description), .text(installHash)]).rows.first,
                let stored = InstallTier(rawValue: try row.string("tier")),
                let next = InstallIdentity.identifiedTier(current: stored, attributionGranted: true)
            else { return nil }
            let version = try transaction.streamVersion(org: org.uuid, stream: stream)
            try transaction.append(
                org: org.uuid, stream: stream, expectedVersion: .exactly(version),
                events: [try NewEvent(AppInstallIdentified(appId: app, projectId: project, installHash: installHash,
                                                           previousTier: stored))],
                metadata: metadata)
            return next
        }
    }

    /// After `POST /v1/m/install` recorded an install as `tier`: an `organic` install whose account token (latest
    /// batch granting attribution) is stored by now is moved to `identity` as `run` moves it. This closes the race of
    /// a batch and the install arriving at once — the install read no token yet, the batch found no install yet —
    /// since whichever commits second, this read comes after both. Answers the install's tier now.
    public func settle(org: OrgID, project: ProjectID, app: AppID, installHash: String, recorded tier: InstallTier,
                       metadata: EventMetadata) throws -> InstallTier {
        guard tier == .organic, try isIdentified(org: org, app: app, installHash: installHash) else { return tier }
        if let moved = try run(org: org, project: project, app: app, installHash: installHash,
                               attributionGranted: true, metadata: metadata) {
            return moved
        }
        return try self.tier(org: org, app: app, installHash: installHash) ?? tier
    }

    private func tier(org: OrgID, app: AppID, installHash: String) throws -> InstallTier? {
        let results = try log.pool.withConnection { connection in
            try connection.pipeline([
                OrgScope.org(org.uuid).statement,
                Statement("SELECT tier FROM app_installs WHERE app_id = $1::uuid AND install_hash = $2",
                          [.text(app.description), .text(installHash)], prepared: true),
            ])
        }
        return try results.last?.rows.first.flatMap { InstallTier(rawValue: try $0.string("tier")) }
    }
}
