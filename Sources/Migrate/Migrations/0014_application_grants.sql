-- Table-by-table privileges of the application role `handoff_app` (issue 12 §5; docs/decisions.md, 2026-12-01).
--
-- 0002 gave the role SELECT, INSERT, UPDATE and DELETE on every table the owner creates (and USAGE, SELECT on every
-- sequence) through default privileges, and later migrations only took some back: the role could, for example,
-- DELETE a `subject_keys` row and so undo an erasure, or rewrite a code's `expires_at`. From here on a new table or
-- sequence gives the role nothing until its migration grants it, and the grants below are the whole list:
-- exactly the statements of `serve`, `work` and `admin` (Sources/Commands, EventStore, Workers), no more.
-- UPDATE is granted per column: only the columns the projections and the log move. Identity columns need no
-- sequence privilege; `handoff replay` copies these grants (table and column) onto the tables it rebuilds.
-- `Tests/MigrateTests/ApplicationGrantTests.swift` compares the catalog with this list.
--
-- Where the role must do more than a grant allows (cross-org consumers, lookups before the org is known), it calls a
-- function of the owner instead (0015).
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE ALL ON TABLES FROM handoff_app;
    ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE ALL ON SEQUENCES FROM handoff_app;
    REVOKE ALL ON ALL TABLES IN SCHEMA public FROM handoff_app;
    REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM handoff_app;

    -- The log (event_append runs with the caller's rights): events are inserted and read, never changed; counter
    -- rows are created, locked (FOR UPDATE needs an UPDATE privilege) and moved; checkpoints of subscriptions.
    GRANT SELECT, INSERT ON events TO handoff_app;
    GRANT SELECT, INSERT, UPDATE (last_seq, last_hash) ON event_orgs TO handoff_app;
    GRANT SELECT, INSERT, UPDATE (tx_id, global_pos, updated_at) ON event_subscriptions TO handoff_app;

    -- Personal-data keys are created and read. Destroying one (crypto-shredding) is not a service path yet; with
    -- neither UPDATE nor DELETE the role can never bring a destroyed key back.
    GRANT SELECT, INSERT ON subject_keys TO handoff_app;

    -- Projections, written by the inline projections in the append transaction: rows are inserted, a few columns
    -- move (a setting, a revocation, a verification, a refund, a redemption), nothing is deleted.
    GRANT SELECT, INSERT ON organizations TO handoff_app;
    GRANT SELECT, INSERT, UPDATE (name, paywall_url, return_scheme, android_package, ios_bundle_id, fingerprint,
                                  tracker, tracker_link, updated_at) ON projects TO handoff_app;
    GRANT SELECT, INSERT, UPDATE (revoked_at) ON secret_keys TO handoff_app;
    GRANT SELECT, INSERT ON buyers TO handoff_app;
    GRANT SELECT, INSERT, UPDATE (verified) ON buyer_emails TO handoff_app;
    GRANT SELECT, INSERT, UPDATE (refunded_at) ON payments TO handoff_app;
    GRANT SELECT, INSERT, UPDATE (redeemed_at) ON handoff_codes TO handoff_app;
    -- Fingerprints are replaced by a later visit of the page and deleted once spent or expired (docs/fingerprint.md).
    GRANT SELECT, INSERT, DELETE, UPDATE (platform, screen, timezone, language, ip_hash, recorded_at)
        ON fingerprints TO handoff_app;

    -- The workers' outbox and the recovery-mail gap.
    GRANT SELECT, INSERT, UPDATE (state, attempt, run_at, last_error, outcome, stream_entry, enqueued_at,
                                  finished_at, retries, updated_at) ON jobs TO handoff_app;
    GRANT SELECT, INSERT, UPDATE (last_mail_at) ON recovery_mail_gaps TO handoff_app;
END
$$;
