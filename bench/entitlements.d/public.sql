-- bench/entitlements: what GET /public/entitlements?projectId=&guid= asks Postgres per lookup: the public project,
-- the guid's home organization, the buyer's payments — three statements, each on its own (autocommit), as the
-- server's three round trips; pgbench counts one run of this file as one transaction. Variables: project, org,
-- buyers. The expiry's format spells its colons chr(58): pgbench reads ":MI" as a variable.
\set n random(1, :buyers)
SELECT org_id::text AS org_id, name, paywall_url, return_scheme, android_package, ios_bundle_id,
    fingerprint, tracker, tracker_link, email_verification, landing_url
    FROM projects WHERE project_id = :project::uuid AND (NULL::uuid IS NULL OR org_id = NULL::uuid);
SELECT buyer_org('bench-' || :n::text)::text AS org_id;
SELECT entitlement, product_id, payment_id, refunded_at IS NOT NULL AS refunded,
    to_char(expires_at AT TIME ZONE 'UTC',
            'YYYY-MM-DD"T"HH24' || chr(58) || 'MI' || chr(58) || 'SS.MS"Z"') AS expires_at
    FROM payments WHERE org_id = :org::uuid AND guid = 'bench-' || :n::text ORDER BY recorded_at, payment_id;
