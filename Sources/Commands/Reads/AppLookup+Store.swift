import Domain
import EventStore
import Foundation
import Postgres

extension AppLookup {
    /// An app as store intake needs it: who it belongs to, what its notifications must name, its secrets opened,
    /// and the destinations a notification arriving now is forwarded to.
    public struct StoreApp: Sendable, Equatable {
        public var orgId: OrgID
        public var appId: AppID
        public var projectId: ProjectID
        public var platform: DevicePlatform
        /// The iOS bundle id (Apple's `bundleId`) or Android package name (Google's `packageName`).
        public var bundleId: String
        /// The App Store app id Apple's Production notifications must carry, when set.
        public var appAppleId: Int64?
        /// Hex SHA-256 of the store token the request came with (`StoreNotificationReceived.storeTokenHash`).
        public var storeTokenHash: String
        /// The exact `Authorization` RevenueCat must send.
        public var revenuecatSecret: String?
        /// The `aud` a Pub/Sub push token must carry; nil: the store URL itself.
        public var googlePushAudience: String?
        /// The service account e-mail a Pub/Sub push token must name; nil: Google notifications are not verified.
        public var googlePushServiceAccount: String?
        /// The service-account key file's JSON text (`GoogleServiceAccountKey.parse(jsonText:field:)` reads it).
        public var googleServiceAccountKey: String?
        /// The live destinations' ids, oldest first (`StoreNotificationReceived.destinations`).
        public var destinations: [DestinationID]

        public init(orgId: OrgID, appId: AppID, projectId: ProjectID, platform: DevicePlatform, bundleId: String,
                    appAppleId: Int64?, storeTokenHash: String, revenuecatSecret: String?,
                    googlePushAudience: String?, googlePushServiceAccount: String?,
                    googleServiceAccountKey: String?, destinations: [DestinationID]) {
            self.orgId = orgId
            self.appId = appId
            self.projectId = projectId
            self.platform = platform
            self.bundleId = bundleId
            self.appAppleId = appAppleId
            self.storeTokenHash = storeTokenHash
            self.revenuecatSecret = revenuecatSecret
            self.googlePushAudience = googlePushAudience
            self.googlePushServiceAccount = googlePushServiceAccount
            self.googleServiceAccountKey = googleServiceAccountKey
            self.destinations = destinations
        }
    }

    /// Where and how one forward is sent: the destination as it is now, and the store token the notification
    /// arrived under — opened even when a rotation has retired it since.
    public struct ForwardTarget: Sendable, Equatable {
        public var url: String
        public var scheme: DestinationScheme
        /// The destination's own signing secret; nil for an `x3` destination that signs with the store token.
        public var secret: String?
        /// The store token whose hash the notification recorded (`x-x3-signature` key when `secret` is nil).
        public var storeToken: String
        /// Whether it is the app's forward URL.
        public var isDefault: Bool
        /// Whether the destination was removed after the notification arrived (the forwarder then sends nothing).
        public var removed: Bool

        public init(url: String, scheme: DestinationScheme, secret: String?, storeToken: String, isDefault: Bool,
                    removed: Bool) {
            self.url = url
            self.scheme = scheme
            self.secret = secret
            self.storeToken = storeToken
            self.isDefault = isDefault
            self.removed = removed
        }
    }

    /// The app whose live store token is `token` (the store URL's last segment), or nil for a malformed, unknown or
    /// rotated-away token — the same nil for each, so the edge answers every miss alike. The org is found by the
    /// token's hash (`store_token_app`), then the app is read under that org's scope and its secrets opened. Throws
    /// `InconsistentState` when a secret does not open (a wrong `HANDOFF_MASTER_KEY`): never treated as unset.
    public func storeApp(token text: String) throws -> StoreApp? {
        guard let token = StoreToken.parse(text) else { return nil }
        let hash = Self.tokenHash(token)
        let owner = try pool.withConnection { connection in
            try connection.queryPrepared("""
                SELECT org_id::text AS org_id, app_id::text AS app_id, retired FROM store_token_app($1)
                """, [.text(hash)]).rows.first
        }
        guard let owner, try !owner.bool("retired"),
              case .success(let org) = OrgID.parse(try owner.string("org_id")),
              case .success(let app) = AppID.parse(try owner.string("app_id"))
        else { return nil }
        return try pool.transaction(opening: OrgScope.org(org.uuid).statement) { connection in
            guard let state = try Self.state(app, org: org, project: nil, on: connection, forUpdate: false)?.state,
                  state.storeTokenHash == hash,
                  case .success(let project) = ProjectID.parse(state.facts.projectId)
            else { return nil }
            let opener = try Opener(keys: subjectKeys, org: org, app: app, on: connection)
            let secrets = state.facts.secrets
            return StoreApp(
                orgId: org, appId: app, projectId: project, platform: state.platform, bundleId: state.facts.bundleId,
                appAppleId: state.facts.appAppleId, storeTokenHash: hash,
                revenuecatSecret: try secrets[.revenuecatSecret].map { try opener.open($0, .revenuecatSecret) },
                googlePushAudience: try secrets[.googlePushAudience].map { try opener.open($0, .googlePushAudience) },
                googlePushServiceAccount: try secrets[.googlePushServiceAccount]
                    .map { try opener.open($0, .googlePushServiceAccount) },
                googleServiceAccountKey: try secrets[.googleServiceAccountKey]
                    .map { try opener.open($0, .googleServiceAccountKey) },
                destinations: state.destinations.map(\.id))
        }
    }

    /// The forward of a notification of app `appId` in `org` that arrived under the token hashed `storeTokenHash`,
    /// to `destinationId`: nil when the app has no such destination (removed ones included, flagged `removed`) or
    /// never had that token.
    public func forwardTarget(org: OrgID, appId: AppID, destinationId: DestinationID, storeTokenHash: String) throws
        -> ForwardTarget?
    {
        try pool.transaction(opening: OrgScope.org(org.uuid).statement) { connection in
            try forwardTarget(org: org, appId: appId, destinationId: destinationId, storeTokenHash: storeTokenHash,
                              on: connection)
        }
    }

    /// The same on `connection`, already in `org`'s scope (a forward job's claim transaction).
    public func forwardTarget(org: OrgID, appId: AppID, destinationId: DestinationID, storeTokenHash: String,
                              on connection: Connection) throws -> ForwardTarget? {
        let rows = try connection.queryPrepared("""
            SELECT d.scheme, d.url, d.sealed_secret, d.is_default, d.removed_at IS NOT NULL AS removed,
                t.sealed_token
            FROM app_destinations d JOIN app_store_tokens t ON t.app_id = d.app_id AND t.token_hash = $3
            WHERE d.destination_id = $2::uuid AND d.app_id = $1::uuid AND d.org_id = $4::uuid
            """, [.text(appId.description), .text(destinationId.description), .text(storeTokenHash),
                  .text(org.description)]).rows
        guard let row = rows.first else { return nil }
        guard let scheme = DestinationScheme(rawValue: try row.string("scheme")),
              let sealedToken = SealedValue(try row.string("sealed_token"))
        else { throw InconsistentState("a stored destination does not read back") }
        let opener = try Opener(keys: subjectKeys, org: org, app: appId, on: connection)
        let secret = try row["sealed_secret"].map { text in
            guard let sealed = SealedValue(text) else {
                throw InconsistentState("a destination secret is not sealed")
            }
            return try opener.open(sealed, field: .destinationSecret)
        }
        return ForwardTarget(url: try row.string("url"), scheme: scheme, secret: secret,
                             storeToken: try opener.open(sealedToken, field: .storeToken),
                             isDefault: try row.bool("is_default"), removed: try row.bool("removed"))
    }

    /// The buyer whose App Store `appAccountToken` in `org` is `token`, or nil when `org` never minted it.
    public func appAccountTokenOwner(org: OrgID, token: UUID) throws -> BuyerGuid? {
        let rows = try pool.withConnection { connection in
            try connection.queryPrepared("""
                SELECT guid FROM app_account_tokens WHERE org_id = $1::uuid AND app_account_token = $2::uuid
                """, [.text(org.description), .text(token.lowercasedText)], in: .org(org.uuid)).rows
        }
        guard let row = rows.first else { return nil }
        guard let guid = BuyerGuid(stored: try row.string("guid")) else {
            throw InconsistentState("a stored guid does not read back")
        }
        return guid
    }

    /// Opens an app's sealed values with its key, read once.
    struct Opener {
        let org: OrgID
        let app: AppID
        let key: SubjectKeyState?

        init(keys: SubjectKeys, org: OrgID, app: AppID, on connection: Connection) throws {
            self.org = org
            self.app = app
            self.key = try keys.existingKey(org: org.uuid, subject: app.secretSubject, on: connection)
        }

        func open(_ value: SealedValue, _ kind: AppSecretKind) throws -> String {
            try open(value, field: kind.personalDataField)
        }

        func open(_ value: SealedValue, field: PersonalDataField) throws -> String {
            guard let key,
                  case .value(let text) = PersonalData.open(value, field: field, org: org.uuid,
                                                            subject: app.secretSubject, key: key)
            else { throw InconsistentState("an app secret does not open (is HANDOFF_MASTER_KEY the same?)") }
            return text
        }
    }
}
