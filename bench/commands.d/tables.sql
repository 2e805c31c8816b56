-- bench/commands: tables shaped like the server's (events, counters, buyers, payments, codes), for pgbench's side.
-- Run with -v orgs=N; drops what an earlier phase left. 400 000 fresh codes for the resolve script.
SET client_min_messages = warning;
DROP TABLE IF EXISTS bench_events, bench_orgs, bench_buyers, bench_buyer_emails, bench_keys, bench_payments,
    bench_codes;
DROP SEQUENCE IF EXISTS bench_next, bench_pay;
CREATE TABLE bench_orgs (org_no int PRIMARY KEY, last_seq bigint NOT NULL, last_hash bytea NOT NULL);
INSERT INTO bench_orgs SELECT i, 0, sha256(''::bytea) FROM generate_series(0, :orgs - 1) i;
CREATE TABLE bench_events (org_no int NOT NULL, org_seq bigint NOT NULL, stream_id text NOT NULL,
    stream_version int NOT NULL, event_id uuid NOT NULL UNIQUE, event_type text NOT NULL, data jsonb NOT NULL,
    metadata jsonb NOT NULL, recorded_at timestamptz NOT NULL DEFAULT now(), prev_hash bytea, hash bytea,
    PRIMARY KEY (org_no, org_seq), UNIQUE (org_no, stream_id, stream_version));
CREATE TABLE bench_keys (org_no int NOT NULL, subject_id text NOT NULL, wrapped_key bytea,
    PRIMARY KEY (org_no, subject_id));
CREATE TABLE bench_buyers (guid text PRIMARY KEY, org_no int NOT NULL, created_at timestamptz NOT NULL);
CREATE TABLE bench_buyer_emails (org_no int NOT NULL, guid text NOT NULL, email_hash text NOT NULL,
    verified boolean NOT NULL, PRIMARY KEY (guid, email_hash));
CREATE INDEX ON bench_buyer_emails (org_no, email_hash);
CREATE TABLE bench_payments (org_no int NOT NULL, payment_id text NOT NULL, guid text NOT NULL, amount bigint,
    currency text, body_hash text, PRIMARY KEY (org_no, payment_id));
CREATE TABLE bench_codes (code_hash text PRIMARY KEY, org_no int NOT NULL, guid text NOT NULL, payment_id text NOT NULL,
    kind text NOT NULL, expires_at timestamptz NOT NULL, redeemed_at timestamptz);
INSERT INTO bench_payments SELECT i % :orgs, 'pi_' || i, 'g' || i, 999, 'EUR', 'h' FROM generate_series(1, 200000) i;
INSERT INTO bench_codes SELECT encode(sha256(i::text::bytea), 'hex'), ((i + 1) / 2) % :orgs, 'g' || ((i + 1) / 2),
    'pi_' || ((i + 1) / 2), CASE WHEN i % 2 = 0 THEN 'handoff' ELSE 'install' END, now() + interval '3 days', NULL
    FROM generate_series(1, 400000) i;
CREATE SEQUENCE bench_next;
CREATE SEQUENCE bench_pay START 1000000;
VACUUM ANALYZE bench_orgs, bench_payments, bench_codes;
