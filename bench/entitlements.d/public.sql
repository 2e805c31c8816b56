-- bench/entitlements: what GET /public/entitlements?projectId=&guid= asks Postgres per lookup, in one pipeline as the
-- server sends it (BuyerLookup.entitlements(of:project:now:)): the project's org set as the scope, the guid's home
-- organization, the buyer's payments in the scope's org; pgbench counts one run of this file as one transaction.
-- Variables: project, buyers. The expiry's format spells its colons chr(58): pgbench reads ":MI" as a variable.
\set n random(1, :buyers)
\startpipeline
SELECT set_config('handoff.org_id', coalesce(project_org(:project::uuid)::text, ''), true) AS org_ids;
SELECT buyer_org('bench-' || :n::text)::text AS org_id;
SELECT entitlement, product_id, payment_id, refunded_at IS NOT NULL AS refunded,
    to_char(expires_at AT TIME ZONE 'UTC',
            'YYYY-MM-DD"T"HH24' || chr(58) || 'MI' || chr(58) || 'SS.MS"Z"') AS expires_at
    FROM payments WHERE org_id = nullif(current_setting('handoff.org_id', true), '')::uuid
        AND guid = 'bench-' || :n::text ORDER BY recorded_at, payment_id;
\endpipeline
