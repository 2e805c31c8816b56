-- App installs (issue 20, docs/app-ingest.md "Installs"): one row per install of an app, with the tier
-- `POST /v1/m/install` decided and the sources it was decided from. Written only by the inline projection
-- `InstallProjection` from `AppInstallRecorded`; rebuilt by `handoff replay`.
--
-- The install id (`inst`) is never stored: `install_hash` is HMAC-SHA256(lookup pepper, `appId:inst`), the same key
-- the ingest tables (0029) use. Sources are null when attribution consent was not granted (tier `unknown`).
CREATE TABLE app_installs (
    app_id          uuid        NOT NULL,
    install_hash    text        NOT NULL CHECK (install_hash ~ '^[0-9a-f]{64}$'),
    org_id          uuid        NOT NULL,
    project_id      uuid        NOT NULL,
    tier            text        NOT NULL CHECK (tier IN ('referrer', 'apple_ads', 'link', 'identity', 'organic',
                                                         'unknown', 'pending')),
    -- The first open (device time corrected by the server clock) and its UTC day, which the reads group by.
    installed_at    timestamptz NOT NULL,
    day             date        NOT NULL,
    sdk             text,
    sdk_version     text,
    utm_source      text,
    utm_medium      text,
    utm_campaign    text,
    utm_term        text,
    utm_content     text,
    gclid           text,
    -- Handoff's click token from the Play referrer, raw: issue 21 links it to its click.
    x3c             text,
    -- The Apple Ads (AdServices) token while the tier is `pending`.
    apple_ads_token text,
    link            text,
    recorded_at     timestamptz NOT NULL,
    PRIMARY KEY (app_id, install_hash)
);
CREATE INDEX app_installs_day_idx ON app_installs (org_id, app_id, day);
CREATE INDEX app_installs_x3c_idx ON app_installs (org_id, x3c) WHERE x3c IS NOT NULL;

ALTER TABLE app_installs ENABLE ROW LEVEL SECURITY;
CREATE POLICY org_scope ON app_installs
    USING (strpos(current_setting('handoff.org_id', true), org_id::text) > 0)
    WITH CHECK (strpos(current_setting('handoff.org_id', true), org_id::text) > 0);

-- The application role: the projection inserts an install once; later slices move its tier (Apple Ads resolution,
-- identity) with UPDATE of those columns only.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT SELECT, INSERT, UPDATE (tier, apple_ads_token) ON app_installs TO handoff_app;
END
$$;
