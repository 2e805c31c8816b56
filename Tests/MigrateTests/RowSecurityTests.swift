import Foundation
import Migrate
import Postgres
import Testing
import TestSupport

/// Row-level security (migration 0015) on every table with an `org_id`, tried as the application role: under org A's
/// scope org B's rows are invisible and a row for B cannot be written; without a scope nothing is visible; the owner
/// is not subject to it.
@Suite struct RowSecurityTests {
    /// One table and a statement that inserts a valid row for the org in `$1` (fresh keys every time).
    struct Table: Sendable, CustomTestStringConvertible {
        let name: String
        let insert: String
        var testDescription: String { name }
    }

    private static let zeroHash = "decode(repeat('00', 32), 'hex')"

    /// Every table that holds an `org_id` (`everyTableWithAnOrgIdIsCoveredAndOnlyTheOwnerBypassesIt` checks the
    /// list against the catalog).
    static let tables: [Table] = [
        Table(name: "events", insert: """
            INSERT INTO events (org_id, org_seq, stream_id, stream_version, event_id, event_type, schema_version,
                                data, metadata, recorded_at, prev_hash, hash)
            VALUES ($1::uuid, 1, 'rls-' || gen_random_uuid(), 1, gen_random_uuid(), 'RowSecurityProbe', 1, '{}', '{}',
                    now(), \(zeroHash), \(zeroHash))
            """),
        Table(name: "event_orgs", insert: """
            INSERT INTO event_orgs (org_id, last_seq, last_hash) VALUES ($1::uuid, 0, \(zeroHash))
            """),
        Table(name: "subject_keys", insert: """
            INSERT INTO subject_keys (org_id, subject_id, wrapped_key)
            VALUES ($1::uuid, 'rls-' || gen_random_uuid(), decode(repeat('ab', 60), 'hex'))
            """),
        Table(name: "organizations", insert: """
            INSERT INTO organizations (org_id, name, created_at) VALUES ($1::uuid, 'Row security', now())
            """),
        Table(name: "projects", insert: """
            INSERT INTO projects (project_id, org_id, name, fingerprint, tracker, created_at, updated_at)
            VALUES (gen_random_uuid(), $1::uuid, 'Row security', true, 'none', now(), now())
            """),
        Table(name: "secret_keys", insert: """
            INSERT INTO secret_keys (key_hash, prefix, project_id, org_id, created_at)
            VALUES (sha256(gen_random_uuid()::text::bytea), 'sk_live_rls', gen_random_uuid(), $1::uuid, now())
            """),
        Table(name: "buyers", insert: """
            INSERT INTO buyers (guid, org_id, project_id, created_at)
            VALUES (gen_random_uuid(), $1::uuid, gen_random_uuid(), now())
            """),
        Table(name: "buyer_emails", insert: """
            INSERT INTO buyer_emails (org_id, guid, email_hash, verified, created_at)
            VALUES ($1::uuid, gen_random_uuid(), repeat('a', 64), false, now())
            """),
        Table(name: "payments", insert: """
            INSERT INTO payments (org_id, payment_id, guid, project_id, amount, currency, product_id, entitlement,
                                  body_hash, recorded_at)
            VALUES ($1::uuid, 'pi_' || gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 1, 'EUR', 'pro',
                    'pro', repeat('b', 64), now())
            """),
        Table(name: "store_notifications", insert: """
            INSERT INTO store_notifications (org_id, app_id, store, notification_id, event_id, notification_type,
                                             verified, received_at)
            VALUES ($1::uuid, gen_random_uuid(), 'apple', gen_random_uuid()::text, gen_random_uuid(), 'TEST', true,
                    now())
            """),
        Table(name: "handoff_codes", insert: """
            INSERT INTO handoff_codes (code_hash, org_id, guid, payment_id, kind, expires_at, sealed_code, created_at)
            VALUES (encode(sha256(gen_random_uuid()::text::bytea), 'hex'), $1::uuid, gen_random_uuid(),
                    'pi_' || gen_random_uuid(), 'handoff', now() + interval '1 day', 'pd1.rls', now())
            """),
        Table(name: "fingerprints", insert: """
            INSERT INTO fingerprints (org_id, payment_id, project_id, guid, screen, ip_hash, paid_at, expires_at,
                                      recorded_at)
            VALUES ($1::uuid, 'pi_' || gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), '390x844',
                    repeat('c', 64), now(), now() + interval '2 hours', now())
            """),
        Table(name: "jobs", insert: """
            INSERT INTO jobs (kind, org_id, payload, dedupe_key, run_at)
            VALUES ('probe', $1::uuid, '{}', 'rls:' || gen_random_uuid(), now())
            """),
        Table(name: "recovery_mail_gaps", insert: """
            INSERT INTO recovery_mail_gaps (org_id, email_hash, last_mail_at)
            VALUES ($1::uuid, encode(sha256(gen_random_uuid()::text::bytea), 'hex'), now())
            """),
        Table(name: "lookup_refs", insert: """
            INSERT INTO lookup_refs (org_id, ref, kind, hash)
            VALUES ($1::uuid, encode(sha256(gen_random_uuid()::text::bytea), 'hex'), 'email',
                    encode(sha256(gen_random_uuid()::text::bytea), 'hex'))
            """),
        Table(name: "apps", insert: """
            INSERT INTO apps (app_id, org_id, project_id, platform, bundle_id, created_at, updated_at)
            VALUES (gen_random_uuid(), $1::uuid, gen_random_uuid(), 'ios', 'com.example.Rls', now(), now())
            """),
        Table(name: "app_store_tokens", insert: """
            INSERT INTO app_store_tokens (token_hash, org_id, app_id, sealed_token, created_at)
            VALUES (encode(sha256(gen_random_uuid()::text::bytea), 'hex'), $1::uuid, gen_random_uuid(), 'pd1.rls',
                    now())
            """),
        Table(name: "app_destinations", insert: """
            INSERT INTO app_destinations (destination_id, org_id, app_id, scheme, url, is_default, created_at)
            VALUES (gen_random_uuid(), $1::uuid, gen_random_uuid(), 'x3', 'https://example.com/hook', false, now())
            """),
        Table(name: "app_account_tokens", insert: """
            INSERT INTO app_account_tokens (org_id, guid, project_id, app_account_token, created_at)
            VALUES ($1::uuid, gen_random_uuid()::text, gen_random_uuid(), gen_random_uuid(), now())
            """),
        Table(name: "app_ingest_configs", insert: """
            INSERT INTO app_ingest_configs (app_id, org_id, project_id, publishable_key, rev, updated_at)
            VALUES (gen_random_uuid(), $1::uuid, gen_random_uuid(),
                    'pk_3x_' || substr(md5(gen_random_uuid()::text) || md5(gen_random_uuid()::text), 1, 32), 1, now())
            """),
        Table(name: "app_leads", insert: """
            INSERT INTO app_leads (lead_id, org_id, project_id, app_id, org_seq, install_hash, form, contact_hash,
                                   marketing_consent, received_at)
            VALUES (gen_random_uuid(), $1::uuid, gen_random_uuid(), gen_random_uuid(), 1, repeat('a', 64), 'contact',
                    repeat('b', 64), false, now())
            """),
        Table(name: "app_installs", insert: """
            INSERT INTO app_installs (app_id, install_hash, org_id, project_id, tier, installed_at, day, recorded_at)
            VALUES (gen_random_uuid(), repeat('b', 64), $1::uuid, gen_random_uuid(), 'organic', now(), current_date,
                    now())
            """),
        Table(name: "ingest_sessions", insert: """
            INSERT INTO ingest_sessions (day, org_id, project_id, app_id, install_hash, session_id, started_at,
                                         last_seen_at, batches, consent)
            VALUES (current_date, $1::uuid, gen_random_uuid(), gen_random_uuid(), repeat('a', 64),
                    gen_random_uuid()::text, now(), now(), 1, 'gggg')
            """),
        Table(name: "ingest_event_batches", insert: """
            INSERT INTO ingest_event_batches (day, org_id, app_id, install_hash, session_id, first_n, event_ns,
                                              event_names, event_ms, event_props, received_at)
            VALUES (current_date, $1::uuid, gen_random_uuid(), repeat('a', 64), gen_random_uuid()::text, 1,
                    '{1}', '{open}', '{1764547200000}', ARRAY[NULL::jsonb], now())
            """),
        Table(name: "go_links", insert: """
            INSERT INTO go_links (link_id, org_id, project_id, token, fallback_url, created_at)
            VALUES (gen_random_uuid(), $1::uuid, gen_random_uuid(), substr(md5(gen_random_uuid()::text), 1, 22),
                    'https://example.com/', now())
            """),
        Table(name: "link_clicks", insert: """
            INSERT INTO link_clicks (click_token, org_id, project_id, link_id, platform, visitor_hash, test,
                                     clicked_at)
            VALUES (substr(md5(gen_random_uuid()::text), 1, 22), $1::uuid, gen_random_uuid(), gen_random_uuid(),
                    'web', repeat('a', 64), false, now())
            """),
        Table(name: "app_conversions", insert: """
            INSERT INTO app_conversions (org_id, project_id, order_id, source, amount, currency, confirmed_at)
            VALUES ($1::uuid, gen_random_uuid(), 'GPA.' || md5(gen_random_uuid()::text), 'payment', 499, 'EUR', now())
            """),
        Table(name: "proxy_keys", insert: """
            INSERT INTO proxy_keys (proxy_key_id, org_id, key_hash, visible_prefix, domains, created_at)
            VALUES (gen_random_uuid(), $1::uuid, encode(sha256(gen_random_uuid()::text::bytea), 'hex'), 'px_abcdefgh',
                    '{links.example.com}', now())
            """),
        Table(name: "ingest_screen_views", insert: """
            INSERT INTO ingest_screen_views (day, org_id, app_id, install_hash, session_id, view_id, seq, started_at,
                                             received_at)
            VALUES (current_date, $1::uuid, gen_random_uuid(), repeat('a', 64), gen_random_uuid()::text, 'v1', 1,
                    now(), now())
            """),
        Table(name: "recording_sessions", insert: """
            INSERT INTO recording_sessions (org_id, project_id, app_id, session_id, install_hash, secret_hash,
                                            platform, created_at)
            VALUES ($1::uuid, gen_random_uuid(), gen_random_uuid(), gen_random_uuid()::text, repeat('a', 64),
                    repeat('b', 64), 'ios', now())
            """),
        Table(name: "recording_packets", insert: """
            INSERT INTO recording_packets (org_id, app_id, session_id, seq, started_at, ended_at, event_count,
                                           events, received_at)
            VALUES ($1::uuid, gen_random_uuid(), gen_random_uuid()::text, 0, now(), now(), 1, decode('7b7d', 'hex'),
                    now())
            """),
        Table(name: "app_postbacks", insert: """
            INSERT INTO app_postbacks (org_id, project_id, app_id, kind, transaction_id, signature, ad_network_id,
                                       source_identifier, app_store_id, did_win, received_at)
            VALUES ($1::uuid, gen_random_uuid(), gen_random_uuid(), 'skan', gen_random_uuid()::text, 'failed',
                    'net.example', '42', 1, true, now())
            """),
        Table(name: "app_install_identities", insert: """
            INSERT INTO app_install_identities (org_id, project_id, app_id, install_hash, kind, token, attribution,
                                                first_seen_at, last_seen_at)
            VALUES ($1::uuid, gen_random_uuid(), gen_random_uuid(), repeat('a', 64), 'em', repeat('b', 64), true,
                    now(), now())
            """),
        Table(name: "app_install_erase_proofs", insert: """
            INSERT INTO app_install_erase_proofs (org_id, app_id, install_hash, proof, recorded_at)
            VALUES ($1::uuid, gen_random_uuid(), repeat('a', 64), repeat('c', 64), now())
            """),
        Table(name: "recording_assets", insert: """
            INSERT INTO recording_assets (org_id, app_id, sha256, mime, bytes, created_at)
            VALUES ($1::uuid, gen_random_uuid(), repeat('c', 64), 'image/png', decode('00', 'hex'), now())
            """),
        Table(name: "affiliate_campaigns", insert: """
            INSERT INTO affiliate_campaigns (campaign_id, org_id, project_id, name, commission, window_days, hold_days,
                                             created_at)
            VALUES (gen_random_uuid(), $1::uuid, gen_random_uuid(), 'Row security',
                    '{"type":"percent","basisPoints":1}', 30, 30, now())
            """),
        Table(name: "affiliates", insert: """
            INSERT INTO affiliates (affiliate_id, org_id, project_id, campaign_id, name, ref_code, created_at)
            VALUES (gen_random_uuid(), $1::uuid, gen_random_uuid(), gen_random_uuid(), 'Row security', 'RWSECC',
                    now())
            """),
        Table(name: "affiliate_clicks", insert: """
            INSERT INTO affiliate_clicks (click_id, org_id, project_id, affiliate_id, campaign_id, source, clicked_at,
                                          expires_at)
            VALUES (gen_random_uuid(), $1::uuid, gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 'link',
                    now(), now() + interval '30 days')
            """),
        Table(name: "affiliate_referrals", insert: """
            INSERT INTO affiliate_referrals (org_id, app_account_token, project_id, affiliate_id, campaign_id,
                                             click_id, bound_at, window_ends_at)
            VALUES ($1::uuid, gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), gen_random_uuid(),
                    gen_random_uuid(), now(), now() + interval '30 days')
            """),
        Table(name: "surfaces", insert: """
            INSERT INTO surfaces (surface_id, org_id, app_id, sealed_secret, created_at)
            VALUES (gen_random_uuid(), $1::uuid, gen_random_uuid(), 'pd1.rls', now())
            """),
        Table(name: "store_deliveries", insert: """
            INSERT INTO store_deliveries (org_id, event_id, org_seq, app_id, notification_event_id, destination_id,
                                          job_id, attempt, delivered, url_host, duration_ms, answer, attempted_at)
            VALUES ($1::uuid, gen_random_uuid(), 1, 'app', gen_random_uuid(), 'dest', 1, 1, true, 'example.com', 5,
                    '', now())
            """),
        Table(name: "commissions", insert: """
            INSERT INTO commissions (org_id, transaction_id, entry, affiliate_id, campaign_id, original_transaction_id,
                                     amount, currency, event_id, org_seq, hash, recorded_at)
            VALUES ($1::uuid, gen_random_uuid()::text, 'credit', gen_random_uuid(), gen_random_uuid(), 't', 1, 'USD',
                    gen_random_uuid(), 1, '\\x00', now())
            """),
        Table(name: "chain_heads", insert: """
            WITH key AS (INSERT INTO audit_keys (key_id, algorithm, public_key, first_used_at)
                         VALUES ('00000000000000aa', 'ed25519', decode(repeat('aa', 32), 'hex'), now())
                         ON CONFLICT DO NOTHING)
            INSERT INTO chain_heads (org_id, org_seq, hash, recorded_at, signed_at, key_id, signature)
            VALUES ($1::uuid, 1 + (random() * 1e9)::bigint, \(zeroHash), now(), now(), '00000000000000aa',
                    decode(repeat('ab', 64), 'hex'))
            """),
        Table(name: "org_auditors", insert: """
            INSERT INTO org_auditors (org_id, url, updated_at)
            VALUES ($1::uuid, 'https://auditor.example/heads', now())
            """),
    ]

    private static let migrated = Result { try ScratchDatabase.migrated(prefix: "rls") }

    private func owner() throws -> Connection {
        try Connection(configuration: PostgresConfiguration(url: try Self.migrated.get().ownerURL))
    }

    private func app() throws -> Connection {
        try Connection(configuration: PostgresConfiguration(url: try Self.migrated.get().appURL))
    }

    /// `statement` as the application role under the scope `orgs` (the setting the service's `OrgScope` sets),
    /// in one implicit transaction; nil: no scope at all.
    @discardableResult
    private func run(_ statement: Statement, scope orgs: [String]?, on connection: Connection) throws -> QueryResult {
        guard let orgs else { return try connection.pipeline([statement])[0] }
        return try connection.pipeline([
            Statement("SELECT set_config('handoff.org_id', $1, true)", [.text(orgs.joined(separator: ","))]),
            statement,
        ])[1]
    }

    private func privilege(_ privilege: String, on table: String) throws -> Bool {
        try owner().query("SELECT has_table_privilege('handoff_app', $1, $2) AS held",
                          [.text(table), .text(privilege)]).rows[0].bool("held")
    }

    private static func newOrg() -> String { UUID().uuidString.lowercased() }

    @Test(arguments: RowSecurityTests.tables)
    func underOrgAsScopeOrgBsRowsAreInvisibleAndARowForBCannotBeWritten(_ table: Table) throws {
        let (orgA, orgB, orgC) = (Self.newOrg(), Self.newOrg(), Self.newOrg())
        let owner = try owner()
        for org in [orgA, orgB] { try owner.query(table.insert, [.text(org)]) }
        let app = try app()
        let select = Statement("SELECT org_id::text AS org_id FROM \(table.name) WHERE org_id = ANY ($1::uuid[])",
                               [.text("{\(orgA),\(orgB)}")])
        let insertForB = Statement(table.insert, [.text(orgB)])
        guard try privilege("SELECT", on: table.name), try privilege("INSERT", on: table.name) else {
            // No privilege at all (`jobs`: the workers use the owner's functions): refused before any policy.
            for statement in [select, insertForB] {
                let error = #expect(throws: PostgresError.self) { try run(statement, scope: [orgA], on: app) }
                #expect(error?.sqlState == "42501")
                #expect(error?.message.hasPrefix("permission denied") == true)
            }
            return
        }
        let seen = try run(select, scope: [orgA], on: app).rows.map { try $0.string("org_id") }
        #expect(!seen.isEmpty)
        #expect(Set(seen) == [orgA])
        // The same insert passes for the org in scope, so what refuses B's row is the policy.
        try run(Statement(table.insert, [.text(orgC)]), scope: [orgC], on: app)
        let error = #expect(throws: PostgresError.self) { try run(insertForB, scope: [orgA], on: app) }
        #expect(error?.sqlState == "42501")
        #expect(error?.message == "new row violates row-level security policy for table \"\(table.name)\"")
        let countB = try owner.query("SELECT count(*) AS n FROM \(table.name) WHERE org_id = $1::uuid", [.text(orgB)])
        #expect(try countB.rows[0].int("n") == 1)
    }

    @Test(arguments: RowSecurityTests.tables)
    func withoutAScopeTheApplicationRoleSeesNoRowAndTheOwnerSeesAll(_ table: Table) throws {
        let (orgA, orgB) = (Self.newOrg(), Self.newOrg())
        let owner = try owner()
        for org in [orgA, orgB] { try owner.query(table.insert, [.text(org)]) }
        let count = Statement("SELECT count(*) AS n FROM \(table.name)")
        #expect(try owner.query(count.sql).rows[0].int("n") >= 2)
        guard try privilege("SELECT", on: table.name) else { return }
        let app = try app()
        #expect(try run(count, scope: nil, on: app).rows[0].int("n") == 0)
        // A scope that ended (set with `true`, then the transaction committed) leaves an empty setting: still none.
        _ = try run(Statement("SELECT 1"), scope: [orgA], on: app)
        #expect(try run(count, scope: nil, on: app).rows[0].int("n") == 0)
        #expect(try run(count, scope: [""], on: app).rows[0].int("n") == 0)
    }

    @Test func aScopeOfSeveralOrgsSeesEachOfThemAndNoOther() throws {
        let (orgA, orgB, orgC) = (Self.newOrg(), Self.newOrg(), Self.newOrg())
        let owner = try owner()
        let table = Self.tables[0]
        for org in [orgA, orgB, orgC] { try owner.query(table.insert, [.text(org)]) }
        let seen = try run(Statement("SELECT DISTINCT org_id::text AS org_id FROM events"), scope: [orgA, orgB],
                           on: try app()).rows.map { try $0.string("org_id") }
        #expect(Set(seen) == [orgA, orgB])
    }

    @Test func everyTableWithAnOrgIdIsCoveredAndOnlyTheOwnerBypassesIt() throws {
        let rows = try owner().query("""
            SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity,
                (SELECT count(*) FROM pg_policy p WHERE p.polrelid = c.oid AND p.polroles = '{0}'
                    AND p.polcmd = '*') AS policies,
                pg_get_userbyid(c.relowner) AS owner
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
              AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'org_id'
                          AND NOT a.attisdropped)
            """).rows
        #expect(Set(try rows.map { try $0.string("relname") }) == Set(Self.tables.map(\.name)))
        for row in rows {
            let name = try row.string("relname")
            #expect(try row.bool("relrowsecurity"), "row-level security on \(name)")
            #expect(try row.bool("relforcerowsecurity") == false, "\(name) must not force it on its owner")
            #expect(try row.int("policies") == 1, "the org_scope policy on \(name)")
            #expect(try row.string("owner") != "handoff_app", "\(name) must not belong to the application role")
        }
        let app = try owner().query("""
            SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = 'handoff_app'
            """).rows[0]
        #expect(try app.bool("rolsuper") == false)
        #expect(try app.bool("rolbypassrls") == false)
    }
}
