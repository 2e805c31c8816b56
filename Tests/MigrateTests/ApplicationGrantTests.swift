import Foundation
import Migrate
import Postgres
import Testing
import TestSupport

/// The application role's privileges after every migration (0014, 0015, 0019): exactly the table below, table by
/// table and column by column, no sequence, only the owner's functions the service calls, and nothing by default.
@Suite struct ApplicationGrantTests {
    /// What `handoff_app` may do to one table: table-wide privileges, plus UPDATE of some columns only.
    struct Grants: Equatable, CustomStringConvertible {
        var table: Set<String>
        var updatable: Set<String> = []

        var description: String { "table \(table.sorted()), update columns \(updatable.sorted())" }
    }

    /// Every table of the schema and what the application role holds on it. A new table must be added here.
    static let expected: [String: Grants] = [
        // Affiliate programs (0020): a click keeps the token minted for it; a referral is replaced after its window.
        "affiliate_campaigns": Grants(table: ["SELECT", "INSERT"]),
        "affiliate_clicks": Grants(table: ["SELECT", "INSERT"], updatable: ["app_account_token"]),
        "affiliate_referrals": Grants(table: ["SELECT", "INSERT"],
                                      updatable: ["project_id", "affiliate_id", "campaign_id", "click_id", "guid",
                                                  "bound_at", "window_ends_at"]),
        "affiliates": Grants(table: ["SELECT", "INSERT"]),
        "app_account_tokens": Grants(table: ["SELECT", "INSERT"]),
        // App ingest (0028): the projection moves an app's publishable key and AppConfig revision.
        "app_ingest_configs": Grants(table: ["SELECT", "INSERT"], updatable: ["publishable_key", "rev", "settings",
                                                                                   "updated_at"]),
        // App ingest rows (0029), partitioned by day: sessions and screen views move, events are only inserted.
        // An install's rows are deleted by its erasure (0034).
        "ingest_sessions": Grants(table: ["SELECT", "INSERT", "DELETE"],
                                  updatable: ["last_seen_at", "batches", "sdk", "sdk_version", "os_version",
                                              "app_version", "consent"]),
        // Since 0049 a batch's events are one row of `ingest_event_batches`; `ingest_events` is the view of them.
        "ingest_event_batches": Grants(table: ["SELECT", "INSERT", "DELETE"]),
        "ingest_events": Grants(table: ["SELECT"]),
        "ingest_screen_views": Grants(table: ["SELECT", "INSERT", "DELETE"],
                                      updatable: ["seq", "started_at", "ended_at", "nav", "path", "engaged_ms",
                                                  "taps", "itaps", "received_at"]),
        // Session recordings (0033): inserted; an install's sessions and packets are deleted by a device erasure.
        "recording_sessions": Grants(table: ["SELECT", "INSERT", "DELETE"]),
        "recording_packets": Grants(table: ["SELECT", "INSERT", "DELETE"]),
        // A packet that uses a screenshot moves its last use (0038), which the retention reads.
        "recording_assets": Grants(table: ["SELECT", "INSERT"], updatable: ["last_used_at"]),
        // Install identities (0034): a batch inserts an install's account tokens and moves their attribution and last
        // sighting, and keeps its first erase proof; an erasure deletes both.
        "app_install_identities": Grants(table: ["SELECT", "INSERT", "DELETE"],
                                         updatable: ["attribution", "last_seen_at"]),
        "app_install_erase_proofs": Grants(table: ["SELECT", "INSERT", "DELETE"]),
        // App leads (0031): only inserted (erasure destroys the install's key, not the row).
        "app_leads": Grants(table: ["SELECT", "INSERT"]),
        // App installs (0030): one row per install; its tier and pending Apple Ads token move later.
        // An erasure clears its journey keys (0040).
        "app_installs": Grants(table: ["SELECT", "INSERT"], updatable: ["tier", "apple_ads_token",
                                                                        "apple_ads_attribution", "x3c", "gclid",
                                                                        "link", "meta_referrer", "utm_content"]),
        // Go links (0032): links inserted by their projection, clicks by GET /v1/go/{ref}; nothing moves.
        "go_links": Grants(table: ["SELECT", "INSERT"]),
        // The click an erased install's `x3c` names is deleted (0040).
        "link_clicks": Grants(table: ["SELECT", "INSERT", "DELETE"]),
        // A proxy key is revoked by its projection (0038).
        "proxy_keys": Grants(table: ["SELECT", "INSERT"], updatable: ["revoked_at"]),
        // Apple's postback copies (0037): a signed copy replaces a stored failed one (every column); nothing deleted.
        "app_postbacks": Grants(table: ["SELECT", "INSERT", "UPDATE"]),
        // App conversions (0035): a hint half and a confirmation half are each filled in once, then marked converted.
        "app_conversions": Grants(table: ["SELECT", "INSERT"],
                                  updatable: ["app_id", "install_hash", "session_id", "hinted_at", "source", "amount",
                                              "currency", "product_id", "confirmed_at", "converted_at", "day",
                                              "install_tier"]),
        "app_destinations": Grants(table: ["SELECT", "INSERT"], updatable: ["removed_at"]),
        "app_store_tokens": Grants(table: ["SELECT", "INSERT"], updatable: ["retired_at"]),
        // Signed chain heads and the audit public keys (0023): append-only, like events.
        "audit_keys": Grants(table: ["SELECT", "INSERT"]),
        "apps": Grants(table: ["SELECT", "INSERT"],
                       updatable: ["bundle_id", "app_apple_id", "revenuecat_secret", "google_push_audience",
                                   "google_push_service_account", "google_service_account_key", "updated_at",
                                   "meta_install_referrer_key"]),
        "buyer_emails": Grants(table: ["SELECT", "INSERT"], updatable: ["verified"]),
        "buyers": Grants(table: ["SELECT", "INSERT"]),
        "chain_heads": Grants(table: ["SELECT", "INSERT"]),
        "event_orgs": Grants(table: ["SELECT", "INSERT"], updatable: ["last_seq", "last_hash"]),
        "event_subscriptions": Grants(table: ["SELECT", "INSERT"], updatable: ["tx_id", "global_pos", "updated_at"]),
        "events": Grants(table: ["SELECT", "INSERT"]),
        "fingerprints": Grants(table: ["SELECT", "INSERT", "DELETE"],
                               updatable: ["platform", "screen", "timezone", "language", "ip_hash", "recorded_at"]),
        "handoff_codes": Grants(table: ["SELECT", "INSERT"], updatable: ["redeemed_at"]),
        // The workers reach `jobs` only through the owner's job_* functions.
        "jobs": Grants(table: []),
        "organizations": Grants(table: ["SELECT", "INSERT"]),
        // The auditor URL (0023), set and cleared by its projection.
        "org_auditors": Grants(table: ["SELECT", "INSERT"], updatable: ["url", "updated_at"]),
        "payments": Grants(table: ["SELECT", "INSERT"], updatable: ["refunded_at", "expires_at", "guid"]),
        "projects": Grants(table: ["SELECT", "INSERT"],
                           updatable: ["name", "paywall_url", "return_scheme", "android_package", "ios_bundle_id",
                                       "fingerprint", "tracker", "tracker_link", "updated_at",
                                       "email_verification", "landing_url"]),
        "store_notifications": Grants(table: ["SELECT", "INSERT"]),
        "recovery_mail_gaps": Grants(table: ["SELECT", "INSERT"],
                                     updatable: ["last_mail_at", "reserved_by_job", "reserved_until"]),
        "schema_migrations": Grants(table: []),
        "secret_keys": Grants(table: ["SELECT", "INSERT"], updatable: ["revoked_at"]),
        // Delivery attempts of forwards (0019): inserted by the projection, read by the deliveries list.
        "store_deliveries": Grants(table: ["SELECT", "INSERT"]),
        "subject_keys": Grants(table: ["SELECT", "INSERT"]),
        // Lookup references (0039): only added; erasure deletes them through the owner's functions.
        "lookup_refs": Grants(table: ["SELECT", "INSERT"]),
        // Surfaces (0021): a rotation moves the secrets.
        "surfaces": Grants(table: ["SELECT", "INSERT"],
                           updatable: ["sealed_secret", "previous_sealed_secret", "previous_valid_until", "rotated_at"]),
        // The commission ledger (0022): inserted by the projection, read by the ledger and statements.
        "commissions": Grants(table: ["SELECT", "INSERT"]),
    ]

    /// The owner's SECURITY DEFINER functions the application role may call (by name; migrations 0015, 0017, 0020,
    /// 0022, 0023, 0024, 0047).
    static let definerFunctions: Set<String> = [
        "affiliate_org", "app_org", "buyer_erase", "buyer_org", "email_erase", "chain_heads_due", "event_read_global", "fingerprints_sweep",
        "go_link_org", "handoff_code_org", "ingest_drop_partitions", "ingest_ensure_partitions",
        "app_install_erase", "ingest_write",
        "job_claim", "job_fail", "job_insert", "job_lock_due", "job_lock_for_outcome",
        "job_lock_for_run", "job_lock_unchecked",
        "job_mark_done", "job_mark_enqueued", "job_note_entries", "job_remember", "job_requeue", "job_touch",
        "link_clicks_drop_before", "recordings_drop_before",
        "buyer_event_seqs",
        "project_org", "proxy_key_org", "publishable_key_ingest_app", "ref_code_org", "secret_key_holder",
        "store_token_app", "surface_org",
    ]

    private static let migrated = Result { try ScratchDatabase.migrated(prefix: "grants") }

    private func owner() throws -> Connection {
        try Connection(configuration: PostgresConfiguration(url: try Self.migrated.get().ownerURL))
    }

    private func app() throws -> Connection {
        try Connection(configuration: PostgresConfiguration(url: try Self.migrated.get().appURL))
    }

    @Test func theApplicationRoleHoldsExactlyTheExpectedPrivilegesOnEveryTable() throws {
        let connection = try owner()
        let tables = try connection.query("""
            SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
            """).rows.map { try $0.string("relname") }
        #expect(Set(tables) == Set(Self.expected.keys))

        var actual: [String: Grants] = Dictionary(uniqueKeysWithValues: tables.map { ($0, Grants(table: [])) })
        for row in try connection.query("""
            SELECT c.relname, p.privilege FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace,
                unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']) p(privilege)
            WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
              AND has_table_privilege('handoff_app', c.oid, p.privilege)
            """).rows {
            actual[try row.string("relname")]?.table.insert(try row.string("privilege"))
        }
        // Column by column: a privilege held on the table shows on every column; any other column privilege must be
        // an expected UPDATE column.
        var columnPrivileges: [String: [String: Set<String>]] = [:]
        var columns: [String: Set<String>] = [:]
        for row in try connection.query("""
            SELECT c.relname, a.attname, p.privilege
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                LEFT JOIN LATERAL unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'REFERENCES']) p(privilege)
                    ON has_column_privilege('handoff_app', c.oid, a.attnum, p.privilege)
            WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
            """).rows {
            let table = try row.string("relname")
            let column = try row.string("attname")
            columns[table, default: []].insert(column)
            if let privilege = row["privilege"] {
                columnPrivileges[table, default: [:]][privilege, default: []].insert(column)
            }
        }
        for table in tables {
            let held = columnPrivileges[table] ?? [:]
            if !(actual[table]?.table.contains("UPDATE") ?? false) { actual[table]?.updatable = held["UPDATE"] ?? [] }
            for privilege in ["SELECT", "INSERT", "REFERENCES"] {
                let tableWide = Self.expected[table]?.table.contains(privilege) == true
                let expectedColumns = tableWide ? columns[table] ?? [] : []
                #expect(held[privilege] ?? [] == expectedColumns, "\(privilege) columns of \(table)")
            }
        }
        for table in tables.sorted() {
            #expect(actual[table] == Self.expected[table], "privileges of handoff_app on \(table)")
        }
    }

    @Test func theApplicationRoleHoldsNoSequenceAndOnlyTheExpectedOwnerFunctions() throws {
        let connection = try owner()
        let sequences = try connection.query("""
            SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'public' AND c.relkind = 'S'
              AND (has_sequence_privilege('handoff_app', c.oid, 'USAGE')
                   OR has_sequence_privilege('handoff_app', c.oid, 'SELECT')
                   OR has_sequence_privilege('handoff_app', c.oid, 'UPDATE'))
            """).rows
        #expect(sequences.isEmpty)
        let functions = try connection.query("""
            SELECT p.proname,
                has_function_privilege('handoff_app', p.oid, 'EXECUTE') AS app,
                EXISTS (SELECT 1 FROM aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                        WHERE a.grantee = 0 AND a.privilege_type = 'EXECUTE') AS public
            FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = 'public' AND p.prosecdef
            """).rows
        #expect(Set(try functions.filter { try $0.bool("app") }.map { try $0.string("proname") })
            == Self.definerFunctions)
        #expect(try functions.filter { try $0.bool("public") }.map { try $0.string("proname") } == [])
        #expect(Set(try functions.map { try $0.string("proname") }) == Self.definerFunctions)
    }

    @Test func aTableOrFunctionTheOwnerCreatesLaterGivesTheApplicationRoleNothing() throws {
        // A database of its own: the other tests of this suite list every table of theirs.
        let connection = try Connection(configuration: PostgresConfiguration(
            url: try ScratchDatabase.migrated(prefix: "grantslater").ownerURL))
        let suffix = UInt32.random(in: 0...UInt32.max)
        try connection.execute("""
            CREATE TABLE later_\(suffix) (id bigint GENERATED ALWAYS AS IDENTITY, org_id uuid);
            CREATE FUNCTION later_\(suffix)() RETURNS int LANGUAGE sql AS 'SELECT 1';
            """)
        let row = try connection.query("""
            SELECT has_table_privilege('handoff_app', 'later_\(suffix)', 'SELECT')
                    OR has_table_privilege('handoff_app', 'later_\(suffix)', 'INSERT')
                    OR has_table_privilege('handoff_app', 'later_\(suffix)', 'UPDATE')
                    OR has_table_privilege('handoff_app', 'later_\(suffix)', 'DELETE') AS table_privilege,
                has_sequence_privilege('handoff_app', pg_get_serial_sequence('later_\(suffix)', 'id'), 'USAGE')
                    AS sequence_privilege,
                has_function_privilege('handoff_app', 'later_\(suffix)()', 'EXECUTE') AS function_privilege
            """).rows[0]
        #expect(try row.bool("table_privilege") == false)
        #expect(try row.bool("sequence_privilege") == false)
        #expect(try row.bool("function_privilege") == false)
    }

    @Test func theApplicationRoleCannotDeleteASubjectKeyNorRewriteACodesExpiry() throws {
        let org = UUID().uuidString.lowercased()
        try owner().execute("""
            INSERT INTO subject_keys (org_id, subject_id, wrapped_key, destroyed_at)
            VALUES ('\(org)', 'erased-buyer', NULL, now())
            """)
        let app = try app()
        for statement in [
            "DELETE FROM subject_keys",
            "UPDATE subject_keys SET wrapped_key = NULL",
            "TRUNCATE subject_keys",
            "UPDATE handoff_codes SET expires_at = now() + interval '1 year'",
            "DELETE FROM payments",
            "UPDATE events SET data = '{}'",
        ] {
            let error = #expect(throws: PostgresError.self, "\(statement)") {
                try app.pipeline([Statement("SELECT set_config('handoff.org_id', $1, true)", [.text(org)]),
                                  Statement(statement)])
            }
            #expect(error?.sqlState == "42501", "\(statement)")
            #expect(error?.message.hasPrefix("permission denied") == true, "\(statement): \(error?.message ?? "")")
        }
        let kept = try owner().query("SELECT count(*) AS n FROM subject_keys WHERE org_id = $1::uuid", [.text(org)])
        #expect(try kept.rows[0].int("n") == 1)
    }
}
