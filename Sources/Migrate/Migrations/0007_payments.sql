-- Payment projections (issue 4, "Payments and codes"): recorded payments with their entitlement, and the codes
-- minted for them. Written only by the inline projection `PaymentProjection`; rebuilt from the log by `handoff replay`.

-- One row per (org, paymentId): the key that makes POST /s2s/v1/payments idempotent, also under concurrency.
CREATE TABLE payments (
    org_id      uuid        NOT NULL,
    payment_id  text        NOT NULL,
    guid        uuid        NOT NULL,
    project_id  uuid        NOT NULL,
    amount      bigint      NOT NULL CHECK (amount >= 0),
    currency    text        NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    product_id  text        NOT NULL,
    entitlement text        NOT NULL,
    -- NULL = lifetime entitlement.
    expires_at  timestamptz,
    paywall_id  text,
    refunded_at timestamptz,
    -- Hex SHA-256 of the normalized request: same hash = a repeat, another hash = PAYMENT_CONFLICT.
    body_hash   text        NOT NULL CHECK (body_hash ~ '^[0-9a-f]{64}$'),
    recorded_at timestamptz NOT NULL,
    PRIMARY KEY (org_id, payment_id)
);
CREATE INDEX payments_guid_idx ON payments (org_id, guid);

-- Handoff codes and install tokens: a keyed hash for lookup (HMAC with HANDOFF_LOOKUP_PEPPER) and the code sealed
-- for the buyer for re-display; never the code in clear. code_hash is unique across kinds and over all time.
CREATE TABLE handoff_codes (
    code_hash   text        PRIMARY KEY CHECK (code_hash ~ '^[0-9a-f]{64}$'),
    org_id      uuid        NOT NULL,
    guid        uuid        NOT NULL,
    payment_id  text        NOT NULL,
    kind        text        NOT NULL CHECK (kind IN ('handoff', 'install')),
    expires_at  timestamptz NOT NULL,
    redeemed_at timestamptz,
    sealed_code text        NOT NULL CHECK (sealed_code LIKE 'pd1.%'),
    created_at  timestamptz NOT NULL,
    CONSTRAINT handoff_codes_payment_kind_key UNIQUE (org_id, payment_id, kind)
);

DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        EXECUTE 'REVOKE DELETE, TRUNCATE ON payments, handoff_codes FROM handoff_app';
    END IF;
END
$$;
