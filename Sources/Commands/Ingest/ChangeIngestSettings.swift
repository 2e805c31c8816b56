import Domain
import EventStore
import Foundation
import Postgres

/// Changes an app's AppConfig settings (`handoff admin app ingest-settings`, `PATCH /s2s/v1/apps/{appId}`): `AppIngestSettingsChanged` with the
/// complete new settings; the app's `rev` moves with it. Refuses 404 for an app the caller does not have.
public struct ChangeIngestSettings: Sendable {
    private let log: EventLog

    init(log: EventLog) { self.log = log }

    /// Applies `changes` (name → text, `IngestSettingsChange.names`) to the app of `scope`; answers the new settings.
    public func run(_ scope: AppCommandScope, changes: [String: String], metadata: EventMetadata) throws
        -> IngestSettings
    {
        try run(scope, changes: changes.mapValues { .text($0) }, field: { "--" + $0 }, metadata: metadata)
    }

    /// Applies `changes` (name → value) to the app of `scope`, a refusal naming `field(name)`; answers the new
    /// settings.
    public func run(_ scope: AppCommandScope, changes: [String: IngestSettingsChange.Value],
                    field: @escaping @Sendable (String) -> String, metadata: EventMetadata) throws -> IngestSettings
    {
        try log.transact(in: scope.orgScope) { transaction in
            let connection = transaction.connection
            guard let loaded = try AppLookup.state(scope.app, org: scope.org, project: scope.project,
                                                   on: connection, forUpdate: true),
                  case .success(let project) = ProjectID.parse(loaded.state.facts.projectId)
            else { throw Refusal.notFound("no app has this id", field: "appId") }
            let stored = try connection.query("""
                SELECT settings::text AS settings FROM app_ingest_configs WHERE app_id = $1::uuid AND org_id = $2::uuid
                """, [.text(scope.app.description), .text(loaded.org.description)]).rows.first
            let current = try stored.map { try IngestLookup.settings(try $0.string("settings")) } ?? .defaults
            let settings: IngestSettings
            switch IngestSettingsChange.apply(changes, to: current, field: field) {
            case .success(let changed): settings = changed
            case .failure(let refusal): throw Refusal(refusal)
            }
            try transaction.append(
                org: loaded.org.uuid, stream: AppStreams.app(scope.app), expectedVersion: .any,
                events: [try NewEvent(AppIngestSettingsChanged(appId: scope.app, projectId: project,
                                                               settings: settings))],
                metadata: metadata)
            return settings
        }
    }
}
