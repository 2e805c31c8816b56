-- bench/entitlements: what GET /s2s/v1/users/{guid}/entitlements asks Postgres per lookup, in the server's two round
-- trips: the secret key's holder (SecretKeyAuthentication), then one pipeline (BuyerLookup.entitlements(of:org:now:))
-- of the guid's home organization, the org's scope and the buyer's payments; pgbench counts one run of this file as
-- one transaction. Variables: keyhash (hex SHA-256 of the key), org, buyers. The expiry's format spells its colons
-- chr(58): pgbench reads ":MI" as a variable.
\set n random(1, :buyers)
SELECT org_id::text AS org_id, project_id::text AS project_id, prefix
    FROM secret_key_holder(decode(:keyhash::text, 'hex'));
\startpipeline
SELECT buyer_org('bench-' || :n::text)::text AS org_id;
SELECT set_config('handoff.org_id', :org::text, true) AS org_ids;
SELECT entitlement, product_id, payment_id, refunded_at IS NOT NULL AS refunded,
    to_char(expires_at AT TIME ZONE 'UTC',
            'YYYY-MM-DD"T"HH24' || chr(58) || 'MI' || chr(58) || 'SS.MS"Z"') AS expires_at
    FROM payments WHERE org_id = :org::uuid AND guid = 'bench-' || :n::text ORDER BY recorded_at, payment_id;
\endpipeline
