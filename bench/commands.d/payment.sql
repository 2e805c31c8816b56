-- bench/commands, pgbench's payment: what recording a payment of a new buyer with an e-mail does in SQL, one
-- transaction: read the payment id and the buyer (and their e-mail), create the buyer's data key, check the two new
-- codes are free, append BuyerCreated (counter row + event) with its projections, append PaymentRecorded and two
-- HandoffCodeMinted (counter row + 3 events) with theirs.
SELECT nextval('bench_pay') AS n \gset
\set org (:n % :orgs)
BEGIN;
SELECT body_hash, guid FROM bench_payments WHERE org_no = :org AND payment_id = 'p' || :n;
SELECT b.org_no,
    EXISTS (SELECT 1 FROM bench_buyer_emails e WHERE e.guid = 'b' || :n AND e.email_hash = md5(:n::text))
    FROM bench_buyers b WHERE b.guid = 'b' || :n;
SELECT wrapped_key FROM bench_keys WHERE org_no = :org AND subject_id = 'b' || :n;
INSERT INTO bench_keys VALUES (:org, 'b' || :n, sha256(:n::text::bytea) || sha256(('k' || :n)::bytea))
    ON CONFLICT DO NOTHING;
SELECT 1 FROM bench_codes WHERE code_hash = md5('h' || :n);
SELECT 1 FROM bench_codes WHERE code_hash = md5('i' || :n);
UPDATE bench_orgs SET last_seq = last_seq + 1, last_hash = sha256(last_hash || :n::text::bytea) WHERE org_no = :org;
INSERT INTO bench_events (org_no, org_seq, stream_id, stream_version, event_id, event_type, data, metadata)
    SELECT :org, last_seq, 'buyer-b' || :n, 1, gen_random_uuid(), 'BuyerCreated',
        jsonb_build_object('guid', 'b' || :n,
            'email', encode(sha256(:n::text::bytea) || sha256(('e' || :n)::bytea), 'base64')), '{}'
    FROM bench_orgs WHERE org_no = :org;
INSERT INTO bench_buyers VALUES ('b' || :n, :org, now());
INSERT INTO bench_buyer_emails VALUES (:org, 'b' || :n, md5(:n::text), false);
UPDATE bench_orgs SET last_seq = last_seq + 3, last_hash = sha256(last_hash || :n::text::bytea) WHERE org_no = :org;
INSERT INTO bench_events (org_no, org_seq, stream_id, stream_version, event_id, event_type, data, metadata)
    SELECT :org, last_seq - 3 + v, 'payment-p' || :n, v, gen_random_uuid(),
        CASE v WHEN 1 THEN 'PaymentRecorded' ELSE 'HandoffCodeMinted' END,
        jsonb_build_object('paymentId', 'p' || :n, 'amount', 999, 'currency', 'EUR'), '{}'
    FROM bench_orgs, generate_series(1, 3) v WHERE org_no = :org;
INSERT INTO bench_payments VALUES (:org, 'p' || :n, 'b' || :n, 999, 'EUR', md5(:n::text));
INSERT INTO bench_codes VALUES (md5('h' || :n), :org, 'b' || :n, 'p' || :n, 'handoff', now() + interval '3 days'),
    (md5('i' || :n), :org, 'b' || :n, 'p' || :n, 'install', now() + interval '30 days');
COMMIT;
