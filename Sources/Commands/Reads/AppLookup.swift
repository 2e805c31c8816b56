import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Reads of the app projections (`apps`, `app_store_tokens`, `app_destinations`, `app_account_tokens`): an app as
/// its tenant sees it (secrets as `{"set":true}`), and — in `AppLookup+Store.swift` — what store intake and the
/// forwarder need, with the secrets opened.
///
/// Every read takes the org id and runs under that org's scope (row-level security), except `storeApp(token:)`,
/// which learns the org from the token (`store_token_app`, migration 0017).
public struct AppLookup: Sendable {
    let pool: Pool
    let subjectKeys: SubjectKeys

    /// Reads over `pool`; `subjectKeys` opens the sealed secrets (the master key of `HANDOFF_MASTER_KEY`).
    public init(pool: Pool, subjectKeys: SubjectKeys) {
        self.pool = pool
        self.subjectKeys = subjectKeys
    }

    /// The hex SHA-256 of a store token's text: how `app_store_tokens` and `StoreNotificationReceived` name it.
    public static func tokenHash(_ token: StoreToken) -> String { Hex.encode(SHA256.hash(Array(token.text.utf8))) }

    /// The app `id` of `org` (and of `project` when given: a secret key reaches only its own project's apps), or
    /// nil. Its destinations are the live ones, oldest first.
    public func app(_ id: AppID, org: OrgID, project: ProjectID? = nil) throws -> App? {
        try pool.transaction(opening: OrgScope.org(org.uuid).statement) { connection in
            try Self.state(id, org: org, project: project, on: connection, forUpdate: false)
                .map { App(state: $0.state, orgId: $0.org) }
        }
    }

    /// The app `id` of whichever organization, or nil: for `handoff admin app show`, which names the app only (its
    /// org comes from `app_org`, migration 0017, in the same transaction).
    public func appOfAnyOrg(_ id: AppID) throws -> App? {
        try pool.transaction(opening: OrgScope.orgOf(.app, .text(id.description)).statement) { connection in
            try Self.state(id, org: nil, project: nil, on: connection, forUpdate: false)
                .map { App(state: $0.state, orgId: $0.org) }
        }
    }

    /// The apps of `project` in `org`, oldest first (two statements, whatever their number).
    public func apps(project: ProjectID, org: OrgID) throws -> [App] {
        try pool.transaction(opening: OrgScope.org(org.uuid).statement) { connection in
            try Self.states(where: "a.org_id = $1::uuid AND a.project_id = $2::uuid",
                            [.text(org.description), .text(project.description)], on: connection, forUpdate: false)
                .map { App(state: $0.state, orgId: $0.org) }
        }
    }

    /// The app `id` (of `org` and `project` when given) with its live token and destinations, on `connection`
    /// (already in the org's scope), locked when `forUpdate`; for the app commands.
    static func state(_ id: AppID, org: OrgID?, project: ProjectID?, on connection: Connection, forUpdate: Bool)
        throws -> (state: AppState, org: OrgID)?
    {
        try states(where: """
            a.app_id = $1::uuid AND ($2::uuid IS NULL OR a.org_id = $2::uuid)
                AND ($3::uuid IS NULL OR a.project_id = $3::uuid)
            """, [.text(id.description), .optional(org?.description), .optional(project?.description)],
                   on: connection, forUpdate: forUpdate).first
    }

    /// The apps (`apps a`) matching `condition` over `parameters`, oldest first, each with its live token and its
    /// live destinations (oldest first).
    private static func states(where condition: String, _ parameters: [PostgresValue], on connection: Connection,
                               forUpdate: Bool) throws -> [(state: AppState, org: OrgID)] {
        let rows = try connection.queryPrepared("""
            SELECT a.app_id::text AS app_id, a.org_id::text AS org_id, a.project_id::text AS project_id, a.platform,
                a.bundle_id, a.app_apple_id::text AS app_apple_id, a.revenuecat_secret, a.google_push_audience,
                a.google_push_service_account, a.google_service_account_key, a.meta_install_referrer_key,
                (SELECT t.token_hash FROM app_store_tokens t WHERE t.app_id = a.app_id AND t.retired_at IS NULL)
                    AS token_hash,
                (SELECT k.publishable_key FROM app_ingest_configs k WHERE k.app_id = a.app_id) AS publishable_key,
                (SELECT k.rev::text FROM app_ingest_configs k WHERE k.app_id = a.app_id) AS ingest_rev,
                (SELECT k.settings::text FROM app_ingest_configs k WHERE k.app_id = a.app_id) AS ingest_settings
            FROM apps a WHERE \(condition) ORDER BY a.created_at, a.app_id
            \(forUpdate ? "FOR UPDATE OF a" : "")
            """, parameters).rows
        guard !rows.isEmpty else { return [] }
        var destinations: [String: [AppState.Destination]] = [:]
        for row in try connection.queryPrepared("""
            SELECT d.app_id::text AS app_id, d.destination_id::text AS destination_id, d.scheme, d.url, d.is_default,
                d.sealed_secret IS NOT NULL AS has_secret
            FROM app_destinations d JOIN apps a ON a.app_id = d.app_id
            WHERE d.removed_at IS NULL AND \(condition) ORDER BY d.created_at, d.destination_id
            """, parameters).rows {
            guard case .success(let destination) = DestinationID.parse(try row.string("destination_id")),
                  let scheme = DestinationScheme(rawValue: try row.string("scheme"))
            else { throw InconsistentState("a stored destination does not read back") }
            destinations[try row.string("app_id"), default: []].append(AppState.Destination(
                id: destination, scheme: scheme, url: try row.string("url"), isDefault: try row.bool("is_default"),
                hasSecret: try row.bool("has_secret")))
        }
        return try rows.map { row in
            let appText = try row.string("app_id")
            guard case .success(let app) = AppID.parse(appText),
                  case .success(let orgId) = OrgID.parse(try row.string("org_id")),
                  case .success(let projectId) = ProjectID.parse(try row.string("project_id")),
                  let platform = DevicePlatform(rawValue: try row.string("platform"))
            else { throw InconsistentState("a stored app does not read back") }
            var secrets: [AppSecretKind: SealedValue] = [:]
            for (kind, column) in Self.secretColumns {
                guard let text = row[column] else { continue }
                guard let sealed = SealedValue(text) else {
                    throw InconsistentState("a stored app secret is not sealed")
                }
                secrets[kind] = sealed
            }
            let appAppleId = try row["app_apple_id"].map { text in
                guard let value = Int64(text) else { throw InconsistentState("a stored appAppleId does not read back") }
                return value
            }
            let facts = AppFacts(appId: app, projectId: projectId, platform: platform,
                                 bundleId: try row.string("bundle_id"), appAppleId: appAppleId, secrets: secrets)
            return (AppState(facts: facts, storeTokenHash: try row.string("token_hash"),
                             destinations: destinations[appText] ?? [], publishableKey: row["publishable_key"],
                             ingest: try ingest(rev: row["ingest_rev"], settings: row["ingest_settings"])),
                    orgId)
        }
    }

    /// The ingest state of a row of `app_ingest_configs`, nil without one.
    private static func ingest(rev: String?, settings: String?) throws -> AppIngestState? {
        guard let rev, let settings else { return nil }
        guard let number = Int(rev) else { throw InconsistentState("a stored ingest rev does not read back") }
        return AppIngestState(rev: number, settings: try IngestLookup.settings(settings))
    }

    /// Each secret's column in `apps`.
    static let secretColumns: [(AppSecretKind, String)] = [
        (.revenuecatSecret, "revenuecat_secret"), (.googlePushAudience, "google_push_audience"),
        (.googlePushServiceAccount, "google_push_service_account"),
        (.googleServiceAccountKey, "google_service_account_key"),
        (.metaInstallReferrerKey, "meta_install_referrer_key"),
    ]
}
