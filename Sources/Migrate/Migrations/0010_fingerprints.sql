-- Fingerprint projection (issue 5, "Post-payment page and fingerprint"): the browser fingerprints of recent payments
-- that can still match a resolve-by-fingerprint call. Written only by the inline projection `FingerprintProjection`;
-- rebuilt from the log by `handoff replay`. No IP in clear (ip_hash = HMAC with HANDOFF_LOOKUP_PEPPER), no user
-- agent (only the platform derived from it). Rows are deleted once spent or expired (see docs/fingerprint.md), so
-- the application role keeps DELETE here, unlike the other projection tables.
CREATE TABLE fingerprints (
    org_id      uuid        NOT NULL,
    payment_id  text        NOT NULL,
    project_id  uuid        NOT NULL,
    guid        uuid        NOT NULL,
    platform    text        CHECK (platform IN ('ios', 'android')),
    -- Normalized WxH in CSS pixels, shorter side first.
    screen      text        NOT NULL CHECK (screen ~ '^[1-9][0-9]{0,4}x[1-9][0-9]{0,4}$'),
    timezone    text,
    language    text,
    ip_hash     text        NOT NULL CHECK (ip_hash ~ '^[0-9a-f]{64}$'),
    paid_at     timestamptz NOT NULL,
    -- paid_at + 2 h: no match is possible after it.
    expires_at  timestamptz NOT NULL,
    recorded_at timestamptz NOT NULL,
    PRIMARY KEY (org_id, payment_id)
);
CREATE INDEX fingerprints_probe_idx ON fingerprints (project_id, ip_hash);
CREATE INDEX fingerprints_expiry_idx ON fingerprints (org_id, expires_at);

DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        EXECUTE 'GRANT SELECT, INSERT, UPDATE, DELETE ON fingerprints TO handoff_app';
        EXECUTE 'REVOKE TRUNCATE, REFERENCES, TRIGGER ON fingerprints FROM handoff_app';
    END IF;
END
$$;
