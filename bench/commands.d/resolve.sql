-- bench/commands, pgbench's resolve: what redeeming a code does in SQL, one transaction: look the code up by its hash
-- (joined to its payment, FOR UPDATE), move its org's counter row (last_seq + 1, chained hash), insert the event,
-- mark the code redeemed.
SELECT nextval('bench_next') AS n \gset
BEGIN;
SELECT c.org_no, c.guid, c.payment_id, c.kind, c.expires_at, c.redeemed_at, p.amount
    FROM bench_codes c JOIN bench_payments p ON p.org_no = c.org_no AND p.payment_id = c.payment_id
    WHERE c.code_hash = encode(sha256(:n::text::bytea), 'hex') FOR UPDATE OF c;
UPDATE bench_orgs SET last_seq = last_seq + 1, last_hash = sha256(last_hash || :n::text::bytea)
    WHERE org_no = ((:n + 1) / 2) % :orgs;
INSERT INTO bench_events (org_no, org_seq, stream_id, stream_version, event_id, event_type, data, metadata)
    SELECT org_no, last_seq, 'code-' || :n, 1, gen_random_uuid(), 'HandoffCodeRedeemed',
        jsonb_build_object('codeHash', encode(sha256(:n::text::bytea), 'hex'), 'kind', 'handoff'), '{}'
    FROM bench_orgs WHERE org_no = ((:n + 1) / 2) % :orgs;
UPDATE bench_codes SET redeemed_at = now()
    WHERE code_hash = encode(sha256(:n::text::bytea), 'hex') AND redeemed_at IS NULL;
COMMIT;
