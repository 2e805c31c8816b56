import Domain
import EventStore
import Foundation
import Postgres

/// Reads of app ingest (`/v1/m/*`) that need no sealed secret: the app a publishable key belongs to.
///
/// The org is learned from the key (`publishable_key_app`, migration 0028); everything else is read under that org's
/// scope (row-level security).
public struct IngestLookup: Sendable {
    let pool: Pool

    public init(pool: Pool) { self.pool = pool }

    /// An app as `/v1/m/*` sees it.
    public struct IngestApp: Sendable, Equatable {
        public var orgId: OrgID
        public var appId: AppID
        public var projectId: ProjectID
        public var platform: DevicePlatform
        public var bundleId: String
        /// The AppConfig revision (`org_seq` of the latest change).
        public var rev: Int
        public var settings: IngestSettings
    }

    /// The app whose live publishable key is `text`, or nil for a malformed, unknown or rotated-away key — the same
    /// nil for each.
    public func app(publishableKey text: String) throws -> IngestApp? {
        guard let key = PublishableKey.parse(text) else { return nil }
        let rows: [Row] = try pool.withConnection { connection in
            guard let owner = try connection.queryPrepared("""
                SELECT org_id::text AS org_id, app_id::text AS app_id FROM publishable_key_app($1)
                """, [.text(key.text)]).rows.first,
                case .success(let org) = OrgID.parse(try owner.string("org_id"))
            else { return [] }
            return try connection.queryPrepared("""
                SELECT a.org_id::text AS org_id, a.app_id::text AS app_id, a.project_id::text AS project_id,
                    a.platform, a.bundle_id, c.rev::text AS rev, c.settings::text AS settings
                FROM app_ingest_configs c JOIN apps a ON a.app_id = c.app_id AND a.org_id = c.org_id
                WHERE c.org_id = $1::uuid AND c.app_id = $2::uuid AND c.publishable_key = $3
                """, [.text(org.description), .text(try owner.string("app_id")), .text(key.text)],
                in: .org(org.uuid)).rows
        }
        guard let row = rows.first else { return nil }
        guard case .success(let org) = OrgID.parse(try row.string("org_id")),
              case .success(let app) = AppID.parse(try row.string("app_id")),
              case .success(let project) = ProjectID.parse(try row.string("project_id")),
              let platform = DevicePlatform(rawValue: try row.string("platform")),
              let rev = Int(try row.string("rev"))
        else { throw InconsistentState("a stored ingest app does not read back") }
        return IngestApp(orgId: org, appId: app, projectId: project, platform: platform,
                         bundleId: try row.string("bundle_id"), rev: rev,
                         settings: try Self.settings(try row.string("settings")))
    }

    /// Stored settings: `{}` (never changed) is the defaults.
    static func settings(_ text: String) throws -> IngestSettings {
        guard text != "{}" else { return .defaults }
        do {
            return try JSONDecoder().decode(IngestSettings.self, from: Data(text.utf8))
        } catch {
            throw InconsistentState("stored ingest settings do not read back")
        }
    }
}
