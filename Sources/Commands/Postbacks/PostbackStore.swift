import Domain
import EventStore
import Foundation
import Postgres

/// Apple's postback copies (migration 0037, docs/postbacks.md): finds the app an App Store id names in an
/// organization, writes postbacks, and reads their aggregates per ad network and source identifier.
///
/// Write rules, each in one transaction in the org's scope: a postback whose signature verified (or, for
/// AdAttributionKit, verified with a development key) is stored once per transaction id, replacing a stored copy whose
/// signature failed; a failed one is stored only while its project has fewer than `failedPerHour` failed copies in the
/// current UTC hour, and never replaces anything.
public struct PostbackStore: Sendable {
    /// Failed-signature copies kept per project and UTC hour; more are answered but not stored.
    public static let failedPerHour = 100

    let pool: Pool

    public init(pool: Pool) { self.pool = pool }

    /// The iOS app of `org` whose App Store id is `appStoreId` (the oldest, should two projects register the same
    /// one); nil when none.
    public func app(org: OrgID, appStoreId: Int64) throws -> (appId: AppID, projectId: ProjectID)? {
        let row = try pool.withConnection { connection in
            try connection.queryPrepared("""
                SELECT app_id::text AS app_id, project_id::text AS project_id FROM apps
                WHERE org_id = $1::uuid AND platform = 'ios' AND app_apple_id = $2::bigint
                ORDER BY created_at, app_id LIMIT 1
                """, [.text(org.description), .text(String(appStoreId))], in: .org(org.uuid)).rows.first
        }
        guard let row, case .success(let app) = AppID.parse(try row.string("app_id")),
              case .success(let project) = ProjectID.parse(try row.string("project_id"))
        else { return nil }
        return (app, project)
    }

    /// What became of a postback.
    public enum WriteOutcome: Sendable, Equatable {
        /// Stored as a new postback.
        case stored
        /// A signed copy took the place of a stored failed one.
        case replaced
        /// A copy with its transaction id is stored already (and is signed, or this one failed too): nothing changed.
        case duplicate
        /// A failed copy over the project's hourly cap: not stored.
        case overCap
    }

    /// Writes `facts` with `signature` for app `app` of `project` in `org`, received at `now`.
    public func write(_ facts: PostbackFacts, signature: PostbackSignature, org: OrgID, project: ProjectID,
                      app: AppID, now: Date) throws -> WriteOutcome {
        let values: [PostgresValue] = [
            .text(org.description), .text(project.description), .text(app.description), .text(facts.kind.rawValue),
            .text(facts.transactionId), .text(signature.rawValue), .optional(facts.version), .text(facts.adNetworkId),
            .text(facts.sourceIdentifier), .text(String(facts.appStoreId)), .bool(facts.didWin),
            .optional(facts.sequenceIndex), .optional(facts.conversionValue), .optional(facts.coarseConversionValue),
            .optional(facts.sourceAppId.map(String.init)), .optional(facts.sourceDomain),
            .double(now.timeIntervalSince1970),
        ]
        let insert = """
            INSERT INTO app_postbacks (org_id, project_id, app_id, kind, transaction_id, signature, version,
                ad_network_id, source_identifier, app_store_id, did_win, sequence_index, conversion_value,
                coarse_conversion_value, source_app_id, source_domain, received_at)
            VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5, $6, $7, $8, $9, $10::bigint, $11::boolean, $12::smallint,
                $13::smallint, $14, $15::bigint, $16, to_timestamp($17::double precision))
            """
        return try pool.transaction(opening: OrgScope.org(org.uuid).statement) { connection in
            if signature == .failed {
                // One writer per project at a time, so the cap holds under concurrent copies.
                try connection.queryPrepared("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
                                             [.text("postbacks-failed:" + project.description)])
                let count = try connection.queryPrepared("""
                    SELECT count(*)::int AS n FROM app_postbacks
                    WHERE project_id = $1::uuid AND signature = 'failed'
                        AND received_at >= date_trunc('hour', to_timestamp($2::double precision) AT TIME ZONE 'UTC')
                            AT TIME ZONE 'UTC'
                    """, [.text(project.description), .double(now.timeIntervalSince1970)]).rows.first
                guard try (count?.int("n") ?? 0) < Self.failedPerHour else { return .overCap }
                let inserted = try connection.queryPrepared(
                    insert + " ON CONFLICT (app_id, kind, transaction_id) DO NOTHING RETURNING 1 AS one", values).rows
                return inserted.isEmpty ? .duplicate : .stored
            }
            let written = try connection.queryPrepared(insert + """
                 ON CONFLICT (app_id, kind, transaction_id) DO UPDATE SET org_id = EXCLUDED.org_id,
                    project_id = EXCLUDED.project_id, signature = EXCLUDED.signature, version = EXCLUDED.version,
                    ad_network_id = EXCLUDED.ad_network_id, source_identifier = EXCLUDED.source_identifier,
                    app_store_id = EXCLUDED.app_store_id, did_win = EXCLUDED.did_win,
                    sequence_index = EXCLUDED.sequence_index, conversion_value = EXCLUDED.conversion_value,
                    coarse_conversion_value = EXCLUDED.coarse_conversion_value,
                    source_app_id = EXCLUDED.source_app_id, source_domain = EXCLUDED.source_domain,
                    received_at = EXCLUDED.received_at
                WHERE app_postbacks.signature = 'failed'
                RETURNING (xmax = 0) AS inserted
                """, values).rows
            guard let row = written.first else { return .duplicate }
            return try row.bool("inserted") ? .stored : .replaced
        }
    }

    /// One group of the aggregate read: postbacks of one framework, ad network and source identifier.
    public struct Group: Sendable, Equatable {
        public var kind: PostbackKind
        public var adNetworkId: String
        public var sourceIdentifier: String
        /// Postbacks signed with the production key.
        public var postbacks: Int
        /// Of those, the ones with `did-win` true.
        public var won: Int
        /// AdAttributionKit postbacks signed with a development key (not in `postbacks`).
        public var development: Int
    }

    /// The postbacks of app `app` in `org` received in [from, to): groups of signed ones (ordered by kind, network,
    /// source identifier) and how many failed copies were stored (never grouped: their fields are unverified).
    public func aggregates(org: OrgID, app: AppID, from: Date, to: Date) throws -> (groups: [Group], failed: Int) {
        let parameters: [PostgresValue] = [.text(org.description), .text(app.description),
                                           .double(from.timeIntervalSince1970), .double(to.timeIntervalSince1970)]
        let results = try pool.withConnection { connection in
            try connection.pipeline([
                OrgScope.org(org.uuid).statement,
                Statement("""
                    SELECT kind, ad_network_id, source_identifier,
                        count(*) FILTER (WHERE signature = 'verified')::int AS postbacks,
                        count(*) FILTER (WHERE signature = 'verified' AND did_win)::int AS won,
                        count(*) FILTER (WHERE signature = 'development')::int AS development
                    FROM app_postbacks
                    WHERE org_id = $1::uuid AND app_id = $2::uuid AND signature <> 'failed'
                        AND received_at >= to_timestamp($3::double precision)
                        AND received_at < to_timestamp($4::double precision)
                    GROUP BY kind, ad_network_id, source_identifier
                    ORDER BY kind, ad_network_id, source_identifier
                    """, parameters),
                Statement("""
                    SELECT count(*)::int AS failed FROM app_postbacks
                    WHERE org_id = $1::uuid AND app_id = $2::uuid AND signature = 'failed'
                        AND received_at >= to_timestamp($3::double precision)
                        AND received_at < to_timestamp($4::double precision)
                    """, parameters),
            ])
        }
        let groups = try results[1].rows.map { row in
            guard let kind = PostbackKind(rawValue: try row.string("kind")) else {
                throw InconsistentState("a stored postback has an unknown kind")
            }
            return Group(kind: kind, adNetworkId: try row.string("ad_network_id"),
                         sourceIdentifier: try row.string("source_identifier"), postbacks: try row.int("postbacks"),
                         won: try row.int("won"), development: try row.int("development"))
        }
        return (groups, try results[2].rows.first?.int("failed") ?? 0)
    }
}

