-- App conversions (issue 20, docs/app-ingest.md "Conversions"): a `purchase` event in a batch is only a hint; a
-- conversion counts when a verified store notification (App Store, Google Play, RevenueCat) or `POST
-- /s2s/v1/payments` confirms the same order id, whichever of the two comes first. One row per (org, project, order
-- id) holds both halves: the hint (app, install, session, purchase time) and the confirmation (source, price,
-- product). The statement that completes the pair sets `converted_at` and, in the same transaction, appends the
-- event `AppConversionConfirmed`; the row lock of the upsert orders two halves arriving at once, so exactly one of
-- them sees both.
--
-- Not a projection: the hint half comes from batches (ingest rows, not events). The install id is never stored:
-- `install_hash` is the keyed hash the ingest tables (0029) and `app_installs` (0030) use, which the read joins for
-- the install's tier.
CREATE TABLE app_conversions (
    org_id       uuid        NOT NULL,
    project_id   uuid        NOT NULL,
    order_id     text        COLLATE "C" NOT NULL CHECK (order_id ~ '^[A-Za-z0-9._:-]{1,128}$'),
    -- The hint: the first `purchase` event naming the order (its time corrected by the batch's clock offset).
    app_id       uuid,
    install_hash text        CHECK (install_hash ~ '^[0-9a-f]{64}$'),
    session_id   text        COLLATE "C" CHECK (length(session_id) BETWEEN 1 AND 64),
    hinted_at    timestamptz,
    -- The confirmation: the first payment recorded under the order id (`payment` = POST /s2s/v1/payments).
    source       text        CHECK (source IN ('apple', 'google', 'revenuecat', 'payment')),
    amount       bigint      CHECK (amount >= 0),
    currency     text        CHECK (currency ~ '^[A-Z]{3}$'),
    product_id   text        CHECK (length(product_id) <= 128),
    confirmed_at timestamptz,
    -- Both halves are in; the UTC day of the hint's purchase time, which the read groups by.
    converted_at timestamptz,
    day          date,
    CHECK ((hinted_at IS NULL) = (app_id IS NULL) AND (hinted_at IS NULL) = (install_hash IS NULL)),
    CHECK ((confirmed_at IS NULL) = (source IS NULL)),
    CHECK (converted_at IS NULL OR (hinted_at IS NOT NULL AND confirmed_at IS NOT NULL AND day IS NOT NULL)),
    PRIMARY KEY (org_id, project_id, order_id)
);
CREATE INDEX app_conversions_day_idx ON app_conversions (org_id, app_id, day) WHERE converted_at IS NOT NULL;

ALTER TABLE app_conversions ENABLE ROW LEVEL SECURITY;
CREATE POLICY org_scope ON app_conversions
    USING (strpos(current_setting('handoff.org_id', true), org_id::text) > 0)
    WITH CHECK (strpos(current_setting('handoff.org_id', true), org_id::text) > 0);

-- The application role: a half is inserted or filled in once; `converted_at` and `day` are set once.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT SELECT, INSERT,
        UPDATE (app_id, install_hash, session_id, hinted_at, source, amount, currency, product_id, confirmed_at,
                converted_at, day)
        ON app_conversions TO handoff_app;
END
$$;
