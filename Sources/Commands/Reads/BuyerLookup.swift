import Domain
import EventStore
import Foundation
import Postgres

/// Reads for the lookup endpoints (`GET /s2s/v1/users/{guid}`, its entitlements, `GET /public/entitlements`) over
/// the projections `buyers`, `buyer_emails` and `payments`.
///
/// Every read takes the org id and runs under that org's scope (row-level security), except `homeOrganization(of:)`,
/// which exists to tell a foreign guid apart (the caller compares the org) and asks `buyer_org` (migration 0015).
public struct BuyerLookup: Sendable {
    private let pool: Pool

    public init(pool: Pool) { self.pool = pool }

    /// A buyer as `GET /s2s/v1/users/{guid}` shows it.
    public struct Profile: Sendable, Equatable, Encodable {
        public var guid: String
        /// The organization the guid belongs to (to tell a foreign guid apart; not shown).
        public var orgId: OrgID
        /// The home project: where the buyer first appeared.
        public var projectId: String
        public var externalId: String?
        /// Whether any of the buyer's e-mail addresses is verified.
        public var emailVerified: Bool
        public var createdAt: String

        private enum CodingKeys: String, CodingKey { case guid, projectId, externalId, emailVerified, createdAt }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(guid, forKey: .guid)
            try container.encode(projectId, forKey: .projectId)
            try container.encode(externalId, forKey: .externalId)
            try container.encode(emailVerified, forKey: .emailVerified)
            try container.encode(createdAt, forKey: .createdAt)
        }
    }

    /// One entitlement of a buyer, with its status judged at read time.
    public struct Entitlement: Sendable, Equatable, Encodable {
        public var entitlement: String
        public var productId: String
        public var paymentId: String
        public var status: String
        public var expiresAt: String?

        private enum CodingKeys: String, CodingKey { case entitlement, productId, paymentId, status, expiresAt }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(entitlement, forKey: .entitlement)
            try container.encode(productId, forKey: .productId)
            try container.encode(paymentId, forKey: .paymentId)
            try container.encode(status, forKey: .status)
            try container.encode(expiresAt, forKey: .expiresAt)
        }
    }

    /// The buyer with this guid in `org`, or nil for a guid `org` never saw (`homeOrganization` tells whether
    /// another org did).
    public func profile(of guid: BuyerGuid, org: OrgID) throws -> Profile? {
        let rows = try pool.withConnection { connection in
            try connection.queryPrepared("""
                SELECT org_id::text AS org_id, project_id::text AS project_id, external_id,
                    to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
                    EXISTS (SELECT 1 FROM buyer_emails e WHERE e.guid = b.guid AND e.verified) AS verified
                FROM buyers b WHERE guid = $1 AND org_id = $2::uuid
                """, [.text(guid.description), .text(org.description)], in: .org(org.uuid)).rows
        }
        guard let row = rows.first, case .success(let org) = OrgID.parse(try row.string("org_id")) else { return nil }
        return Profile(guid: guid.description, orgId: org, projectId: try row.string("project_id"),
                       externalId: row.isNull("external_id") ? nil : try row.string("external_id"),
                       emailVerified: try row.bool("verified"), createdAt: try row.string("created_at"))
    }

    /// What `entitlements(of:org:now:)` finds: the list, or that the guid is another organization's.
    public enum EntitlementsRead: Sendable, Equatable {
        /// The buyer's entitlements in the org (none for a guid never seen).
        case found([Entitlement])
        /// The guid first appeared in another organization.
        case foreign
    }

    /// The entitlements of `guid` in `org`, oldest payment first, judged at `now` — or `.foreign` for another org's
    /// guid.
    ///
    /// One round trip (`Connection.pipeline`): the guid's home org (`buyer_org`, past row-level security), the org's
    /// scope and the payments read, in one implicit transaction. `readPool`, when given, is a replica's
    /// (`ReadRouting`); this lookup's pool otherwise.
    public func entitlements(of guid: BuyerGuid, org: OrgID, now: Date, from readPool: Pool? = nil) throws
        -> EntitlementsRead
    {
        let results = try (readPool ?? pool).withConnection { connection in
            try connection.pipeline([
                Statement("SELECT buyer_org($1)::text AS org_id", [.text(guid.description)], prepared: true),
                OrgScope.org(org.uuid).statement,
                Statement("""
                    SELECT entitlement, product_id, payment_id, refunded_at IS NOT NULL AS refunded,
                        to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS expires_at
                    FROM payments WHERE org_id = $1::uuid AND guid = $2
                    ORDER BY recorded_at, payment_id
                    """, [.text(org.description), .text(guid.description)], prepared: true),
            ])
        }
        if try Self.isForeign(results[0], org: org) { return .foreign }
        return .found(try Self.entitlements(results[2].rows, now: now))
    }

    /// What `entitlements(of:project:now:)` finds for a device: the list, another organization's guid, or no such
    /// project.
    public enum PublicEntitlementsRead: Sendable, Equatable {
        case found([Entitlement])
        case foreign
        case unknownProject
    }

    /// The entitlements of `guid` in the organization of public project `project` (`GET /public/entitlements`):
    /// one round trip, as `entitlements(of:org:now:)` but with the org found from the project in the same pipeline
    /// (its scope statement, `OrgScope.orgOf(.project, …)`, answers the org it set, empty for no such project; the
    /// payments read takes the org from that setting).
    public func entitlements(of guid: BuyerGuid, project: ProjectID, now: Date, from readPool: Pool? = nil) throws
        -> PublicEntitlementsRead
    {
        let results = try (readPool ?? pool).withConnection { connection in
            try connection.pipeline([
                OrgScope.orgOf(.project, .text(project.description)).statement,
                Statement("SELECT buyer_org($1)::text AS org_id", [.text(guid.description)], prepared: true),
                Statement("""
                    SELECT entitlement, product_id, payment_id, refunded_at IS NOT NULL AS refunded,
                        to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS expires_at
                    FROM payments
                    WHERE org_id = nullif(current_setting('\(OrgScope.setting)', true), '')::uuid AND guid = $1
                    ORDER BY recorded_at, payment_id
                    """, [.text(guid.description)], prepared: true),
            ])
        }
        guard let scope = results[0].rows.first, !scope.isNull("org_ids"),
              case .success(let org) = OrgID.parse(try scope.string("org_ids")) else { return .unknownProject }
        if try Self.isForeign(results[1], org: org) { return .foreign }
        return .found(try Self.entitlements(results[2].rows, now: now))
    }

    /// Whether `buyerOrg` (a `buyer_org` read) names an organization other than `org`.
    private static func isForeign(_ buyerOrg: QueryResult, org: OrgID) throws -> Bool {
        guard let home = buyerOrg.rows.first, !home.isNull("org_id"),
              case .success(let homeOrg) = OrgID.parse(try home.string("org_id")) else { return false }
        return homeOrg != org
    }

    /// Payment rows as entitlements, each judged at `now`.
    private static func entitlements(_ rows: [Row], now: Date) throws -> [Entitlement] {
        try rows.map { row in
            let expiresText = row.isNull("expires_at") ? nil : try row.string("expires_at")
            var expiresAt: Date?
            if let expiresText {
                // A stored expiry that does not read back is never a lifetime: judge it expired.
                if case .success(let date) = PaymentFields.rfc3339(expiresText) { expiresAt = date } else {
                    expiresAt = Date(timeIntervalSince1970: 0)
                }
            }
            let status = EntitlementStatus.judge(expiresAt: expiresAt,
                                                 refundedAt: try row.bool("refunded") ? now : nil, now: now)
            return Entitlement(entitlement: try row.string("entitlement"), productId: try row.string("product_id"),
                               paymentId: try row.string("payment_id"), status: status.rawValue,
                               expiresAt: expiresText)
        }
    }

    /// The organization a guid belongs to (where it first appeared), or nil for a guid never seen; any org's guid
    /// (`buyer_org`, migration 0015, answers past row-level security for this one guid).
    public func homeOrganization(of guid: BuyerGuid) throws -> OrgID? {
        let rows = try pool.withConnection { connection in
            try connection.queryPrepared("SELECT buyer_org($1)::text AS org_id", [.text(guid.description)]).rows
        }
        guard let row = rows.first, !row.isNull("org_id"),
              case .success(let org) = OrgID.parse(try row.string("org_id")) else { return nil }
        return org
    }
}
