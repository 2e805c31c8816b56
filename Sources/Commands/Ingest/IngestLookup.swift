import Domain
import EventStore
import Foundation
import Postgres
import Synchronization

/// Reads of app ingest (`/v1/m/*`) that need no sealed secret: the app a publishable key belongs to.
///
/// The app is read by its key alone (`publishable_key_ingest_app`, migration 0047, an owner's function: the key is
/// the credential), in one statement.
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
        // One statement (migration 0047): the key is the credential, and the owner's function answers the app it
        // opens, as the org's own read would.
        let rows = try pool.withConnection { connection in
            try connection.queryPrepared("""
                SELECT org_id::text AS org_id, app_id::text AS app_id, project_id::text AS project_id, platform,
                    bundle_id, rev::text AS rev, settings::text AS settings
                FROM publishable_key_ingest_app($1)
                """, [.text(key.text)]).rows
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
        if let known = decodedSettings.withLock({ $0[text] }) { return known }
        let settings: IngestSettings
        do {
            settings = try JSONDecoder().decode(IngestSettings.self, from: Data(text.utf8))
        } catch {
            throw InconsistentState("stored ingest settings do not read back")
        }
        decodedSettings.withLock { cache in
            if cache.count >= decodedSettingsCapacity { cache.removeAll(keepingCapacity: true) }
            cache[text] = settings
        }
        return settings
    }

    /// Settings already decoded, by their stored text: every SDK request reads its app's settings, which change
    /// rarely, and decoding them was a visible part of a batch's cost. The text is the whole key, so a change is a
    /// new entry; the cache is emptied when full.
    private static let decodedSettings = Mutex<[String: IngestSettings]>([:])
    private static let decodedSettingsCapacity = 1024
}
