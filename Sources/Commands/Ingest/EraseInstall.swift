import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Erases installs of apps (docs/app-ingest.md "Erase"): asked by the device, which proves it holds the install's
/// erase secret (`POST /v1/m/erase`), or by the project's server naming a user (`POST
/// /v1/projects/{project}/app-users/erase`).
///
/// Per install: its recordings are deleted first (`RecordingStore.erase`), then in one transaction its sessions,
/// screen views and events (the day-partitioned ingest rows), account tokens and erase proof are deleted, the go-link
/// click its `x3c` names is deleted, its conversions keep their tier but lose the install and session, its
/// personal-data key `app-install:<hash>` is destroyed (which shreds its leads' contact data and the journey keys of
/// its `AppInstallRecorded`: the owner's `app_install_erase`, after the append, as buyer erasure does) and
/// `AppInstallErased` is appended, which `InstallProjection` folds by clearing the install's journey keys. Recordings
/// go first so that a failure in between leaves the proof, and a retry erases the rest.
public struct EraseInstall: Sendable {
    private let context: IdentityContext
    private let recordings: RecordingStore

    init(_ context: IdentityContext) {
        self.context = context
        self.recordings = RecordingStore(pool: context.log.pool)
    }

    /// One install of an app.
    public struct Install: Sendable, Equatable, Hashable {
        public var appId: AppID
        public var projectId: ProjectID
        public var installHash: String
    }

    /// What a server-side erasure did: its id (in every `AppInstallErased`) and how many installs it erased.
    public struct Erased: Sendable, Equatable {
        public var erasureId: UUID
        public var installs: Int
    }

    /// The device's erasure of install `install` (the SDK's `inst`) of app `app`: erases it when SHA-256 of `secret`
    /// is the install's stored erase proof (`proofs(of:)`); answers whether it did. No proof stored, or another one,
    /// erases nothing — the caller answers the same either way.
    public func device(org: OrgID, project: ProjectID, app: AppID, install: String, secret: String,
                       metadata: EventMetadata) throws -> Bool {
        let hash = Hex.encode(HMAC.sha256(key: context.secrets.lookupPepper, message: Array("\(app):\(install)".utf8)))
        let results = try context.log.pool.withConnection { connection in
            try connection.pipeline([
                OrgScope.org(org.uuid).statement,
                Statement("""
                    SELECT proof FROM app_install_erase_proofs WHERE app_id = $1::uuid AND install_hash = $2
                    """, [.text(app.description), .text(hash)], prepared: true),
            ])
        }
        guard let stored = try results.last?.rows.first?.string("proof") else { return false }
        // Every reading is compared, so the time taken does not say which one matched.
        let matches = Self.proofs(of: secret).reduce(false) { found, offered in
            ConstantTime.equals(Array(offered.utf8), Array(stored.utf8)) || found
        }
        guard matches else { return false }
        try erase([Install(appId: app, projectId: project, installHash: hash)], org: org, origin: .device,
                  erasureId: SecureRandom.uuid(), metadata: metadata)
        return true
    }

    /// The erase proofs `secret` (64 hex digits, either case) answers to, in lowercase hex: the protocol says
    /// "SHA-256 of the secret" without naming bytes, so SHA-256 of its text as sent, of its text in lowercase, and of
    /// the 32 bytes it spells all count (docs/app-identity.md "Erase proof").
    static func proofs(of secret: String) -> [String] {
        var texts = [secret]
        if secret.lowercased() != secret { texts.append(secret.lowercased()) }
        var proofs = texts.map { Hex.encode(SHA256.hash(Array($0.utf8))) }
        if let bytes = Hex.decode(secret.lowercased()) { proofs.append(Hex.encode(SHA256.hash(bytes))) }
        return proofs
    }

    /// The server-side erasure of a user of project `project`: every install of the project's apps that holds the
    /// user's account tokens — SHA-256 of `userId` (`xid`), of `email` as the SDK normalizes it (`em`, `emg`).
    public func user(org: OrgID, project: ProjectID, userId: String?, email: String?,
                     metadata: EventMetadata) throws -> Erased {
        var kinds = PostgresArray(.text), tokens = PostgresArray(.text)
        for (kind, text) in InstallIdentity.tokenTexts(userId: userId, email: email) {
            kinds.append(kind)
            tokens.append(Hex.encode(SHA256.hash(Array(text.utf8))))
        }
        let results = try context.log.pool.withConnection { connection in
            try connection.pipeline([
                OrgScope.org(org.uuid).statement,
                Statement("""
                    SELECT DISTINCT app_id::text AS app_id, install_hash FROM app_install_identities
                    WHERE org_id = $1::uuid AND project_id = $2::uuid
                        AND (kind, token) IN (SELECT * FROM unnest($3::text[], $4::text[]))
                    ORDER BY 1, 2
                    """, [.text(org.description), .text(project.description), kinds.value, tokens.value]),
            ])
        }
        let installs = try (results.last?.rows ?? []).map { row in
            guard case .success(let app) = AppID.parse(try row.string("app_id")) else {
                throw InconsistentState("an install identity names a malformed app id")
            }
            return Install(appId: app, projectId: project, installHash: try row.string("install_hash"))
        }
        let erasureId = SecureRandom.uuid()
        try erase(installs, org: org, origin: .server, erasureId: erasureId, metadata: metadata)
        return Erased(erasureId: erasureId, installs: installs.count)
    }

    private func erase(_ installs: [Install], org: OrgID, origin: AppInstallErased.Origin, erasureId: UUID,
                       metadata: EventMetadata) throws {
        guard !installs.isEmpty else { return }
        for install in installs {
            try recordings.erase(org: org, appId: install.appId, installHash: install.installHash)
        }
        try context.log.transact(in: .org(org.uuid)) { transaction in
            let connection = transaction.connection
            for install in installs {
                let parameters: [PostgresValue] = [.text(install.appId.description), .text(install.installHash)]
                for table in ["ingest_event_batches", "ingest_screen_views", "ingest_sessions",
                              "app_install_identities", "app_install_erase_proofs"] {
                    try connection.query("DELETE FROM \(table) WHERE app_id = $1::uuid AND install_hash = $2",
                                         parameters)
                }
                try eraseJourney(of: install, org: org, on: connection)
                try transaction.append(
                    org: org.uuid,
                    stream: InstallIdentityStreams.erasure(app: install.appId, installHash: install.installHash),
                    expectedVersion: .any,
                    events: [try NewEvent(AppInstallErased(erasureId: erasureId, appId: install.appId,
                                                           projectId: install.projectId,
                                                           installHash: install.installHash, origin: origin))],
                    metadata: metadata)
                // The owner's function destroys the key, and only for the erasure this transaction recorded.
                try connection.query("SELECT app_install_erase($1::uuid, $2::uuid, $3, $4::uuid)", [
                    .text(org.description), .text(install.appId.description), .text(install.installHash),
                    .text(erasureId.lowercasedText),
                ])
            }
        }
    }

    /// What of `install` lies outside its own rows, before its key is destroyed: the go-link click its `x3c` named
    /// (the click's web session and visitor hash are the other end of the install's journey) is deleted, and its
    /// conversions keep the money fact and the install's current tier but no longer name the install or session.
    private func eraseJourney(of install: Install, org: OrgID, on connection: Connection) throws {
        let parameters: [PostgresValue] = [.text(install.appId.description), .text(install.installHash)]
        let row = try connection.query("""
            SELECT tier, x3c FROM app_installs WHERE app_id = $1::uuid AND install_hash = $2
            """, parameters).rows.first
        if let stored = row?["x3c"], case .value(let x3c) = try context.subjectKeys.journeyKey(
            stored, field: .x3c, org: org.uuid, installHash: install.installHash, on: connection) {
            try connection.query("""
                DELETE FROM link_clicks WHERE org_id = $1::uuid AND project_id = $2::uuid AND click_token = $3
                """, [.text(org.description), .text(install.projectId.description), .text(x3c)])
        }
        let tier = try row?.string("tier") ?? InstallTier.unknown.rawValue
        try connection.query("""
            UPDATE app_conversions SET install_tier = $3, install_hash = NULL, session_id = NULL
            WHERE app_id = $1::uuid AND install_hash = $2
            """, parameters + [.text(tier)])
    }
}
