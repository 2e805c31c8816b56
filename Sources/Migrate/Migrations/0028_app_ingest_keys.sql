-- App ingest, part 1 (issue 20, docs/app-ingest.md): each app's publishable key and the revision of the AppConfig
-- the SDKs fetch with it. Written only by the inline projection `IngestProjection`; rebuilt by `handoff replay`.
--
-- A publishable key (`pk_3x_…`) is public by design (it ships inside the app), so it is kept in clear: `handoff admin
-- app show` prints it. It works only on `/v1/m/*`. A rotation replaces it: the old text is forgotten, so a rotated
-- key is as unknown as one never issued. `rev` is the `org_seq` of the latest event that changed what the app's
-- AppConfig says (the app, its key, its project): it grows with every such change, and a replay writes the same.
CREATE TABLE app_ingest_configs (
    app_id          uuid        PRIMARY KEY,
    org_id          uuid        NOT NULL,
    project_id      uuid        NOT NULL,
    publishable_key text        UNIQUE CHECK (publishable_key ~ '^pk_3x_[A-Za-z0-9_-]{32}$'),
    rev             bigint      NOT NULL CHECK (rev > 0),
    -- The AppConfig settings as `AppIngestSettingsChanged` carries them; `{}` until the first change (the defaults).
    settings        jsonb       NOT NULL DEFAULT '{}',
    updated_at      timestamptz NOT NULL
);
CREATE INDEX app_ingest_configs_project_idx ON app_ingest_configs (org_id, project_id);

ALTER TABLE app_ingest_configs ENABLE ROW LEVEL SECURITY;
CREATE POLICY org_scope ON app_ingest_configs
    USING (strpos(current_setting('handoff.org_id', true), org_id::text) > 0)
    WITH CHECK (strpos(current_setting('handoff.org_id', true), org_id::text) > 0);

-- The app of a publishable key, before the org is known (as `store_token_app` in 0017: one exact key in, the org and
-- the app out).
CREATE FUNCTION publishable_key_app(p_key text) RETURNS TABLE (org_id uuid, app_id uuid)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    RETURN QUERY SELECT c.org_id, c.app_id FROM app_ingest_configs c WHERE c.publishable_key = p_key;
END
$$;

-- The application role: the projection inserts a row per app and moves its key and revision; nothing is deleted.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT SELECT, INSERT, UPDATE (publishable_key, rev, settings, updated_at) ON app_ingest_configs TO handoff_app;
    GRANT EXECUTE ON FUNCTION publishable_key_app(text) TO handoff_app;
END
$$;
REVOKE ALL ON FUNCTION publishable_key_app(text) FROM PUBLIC;
