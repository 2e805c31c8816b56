import Domain
import EventStore
import Foundation
import Postgres

/// Reads of `surfaces` (migration 0021): a surface as the admin CLI shows it (never its secret), and — for
/// `POST /v1/app-store/assn/{surfaceId}` — the surface's app as store intake needs it with the secrets opened.
///
/// Surface ids are global: every read learns the org from the id (`surface_org`) in the statement that opens its
/// transaction, then reads under that org's scope (row-level security).
public struct SurfaceLookup: Sendable {
    let pool: Pool
    let subjectKeys: SubjectKeys

    /// Reads over `pool`; `subjectKeys` opens the sealed secrets (the master key of `HANDOFF_MASTER_KEY`).
    public init(pool: Pool, subjectKeys: SubjectKeys) {
        self.pool = pool
        self.subjectKeys = subjectKeys
    }

    /// A surface without its secrets: `handoff admin surface show`.
    public struct Surface: Sendable, Equatable {
        /// The surface, its iOS app, the app's project and organization.
        public var surfaceId: SurfaceID
        public var appId: AppID
        public var projectId: ProjectID
        public var orgId: OrgID
        /// RFC 3339 (UTC, milliseconds).
        public var createdAt: String
        /// When the secret was last rotated; nil before any rotation.
        public var secretRotatedAt: String?
        /// Until when the secret before the last rotation verifies; nil before any rotation.
        public var previousSecretValidUntil: String?
    }

    /// What intake needs: the surface, its app (destinations always empty: a forwarded notification is never
    /// forwarded on) and the surface's secrets, opened.
    public struct Intake: Sendable, Equatable {
        public var surfaceId: SurfaceID
        public var app: AppLookup.StoreApp
        public var secrets: SurfaceSecrets<String>
    }

    /// The surface `id` of whichever organization, or nil.
    public func surface(_ id: SurfaceID) throws -> Surface? {
        try pool.transaction(opening: OrgScope.orgOf(.surface, .text(id.description)).statement) { connection in
            try Self.row(id, on: connection, forUpdate: false).map(\.surface)
        }
    }

    /// The surface `id` with its app and secrets for intake, or nil for an unknown id (the edge answers 404). Throws
    /// `InconsistentState` when a secret does not open (a wrong `HANDOFF_MASTER_KEY`): never treated as unknown.
    public func intake(_ id: SurfaceID) throws -> Intake? {
        try pool.transaction(opening: OrgScope.orgOf(.surface, .text(id.description)).statement) { connection in
            guard let row = try Self.row(id, on: connection, forUpdate: false) else { return nil }
            let org = row.surface.orgId
            guard let state = try AppLookup.state(row.surface.appId, org: org, project: nil, on: connection,
                                                  forUpdate: false)?.state
            else { throw InconsistentState("a surface's app does not exist") }
            let opener = try AppLookup.Opener(keys: subjectKeys, org: org, app: row.surface.appId, on: connection)
            let secrets = SurfaceSecrets(
                current: try opener.open(row.secrets.current, field: .forwardingSecret),
                previous: try row.secrets.previous.map { try opener.open($0, field: .forwardingSecret) },
                previousValidUntil: row.secrets.previousValidUntil)
            let app = AppLookup.StoreApp(
                orgId: org, appId: row.surface.appId, projectId: row.surface.projectId, platform: state.platform,
                bundleId: state.facts.bundleId, appAppleId: state.facts.appAppleId,
                storeTokenHash: state.storeTokenHash, revenuecatSecret: nil, googlePushAudience: nil,
                googlePushServiceAccount: nil, googleServiceAccountKey: nil, destinations: [])
            return Intake(surfaceId: id, app: app, secrets: secrets)
        }
    }

    /// The surface `id` on `connection` (already in its org's scope), locked when `forUpdate`; for the commands.
    static func row(_ id: SurfaceID, on connection: Connection, forUpdate: Bool) throws
        -> (surface: Surface, secrets: SurfaceSecrets<SealedValue>)?
    {
        let rows = try connection.query("""
            SELECT s.app_id::text AS app_id, s.org_id::text AS org_id, a.project_id::text AS project_id,
                s.sealed_secret, s.previous_sealed_secret,
                to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
                to_char(s.rotated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS rotated_at,
                to_char(s.previous_valid_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS valid_until
            FROM surfaces s JOIN apps a ON a.app_id = s.app_id
            WHERE s.surface_id = $1::uuid
            \(forUpdate ? "FOR UPDATE OF s" : "")
            """, [.text(id.description)]).rows
        guard let row = rows.first else { return nil }
        guard case .success(let app) = AppID.parse(try row.string("app_id")),
              case .success(let org) = OrgID.parse(try row.string("org_id")),
              case .success(let project) = ProjectID.parse(try row.string("project_id")),
              let current = SealedValue(try row.string("sealed_secret"))
        else { throw InconsistentState("a stored surface does not read back") }
        let previous = try row["previous_sealed_secret"].map { text in
            guard let sealed = SealedValue(text) else { throw InconsistentState("a surface secret is not sealed") }
            return sealed
        }
        let validUntilText = row["valid_until"]
        let validUntil = try validUntilText.map { text in
            guard let date = RFC3339.parse(text) else { throw InconsistentState("a surface's grace does not read") }
            return date
        }
        let surface = Surface(surfaceId: id, appId: app, projectId: project, orgId: org,
                              createdAt: try row.string("created_at"), secretRotatedAt: row["rotated_at"],
                              previousSecretValidUntil: validUntilText)
        return (surface, SurfaceSecrets(current: current, previous: previous, previousValidUntil: validUntil))
    }
}
