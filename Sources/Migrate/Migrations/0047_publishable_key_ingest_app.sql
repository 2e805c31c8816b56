-- The app of a publishable key with what `/v1/m/*` needs of it, in one statement (docs/performance.md "bench/ingest",
-- session 2026-12-05 #11). Every SDK request looked its key up in two round trips: `publishable_key_app` (0028) for
-- the org, then the app and its ingest settings under that org's scope. The key is the credential either way, and
-- this function answers exactly what the two reads answered for it: one exact live key in, its app out (nothing for
-- a rotated-away or unknown key).
CREATE FUNCTION publishable_key_ingest_app(p_key text)
RETURNS TABLE (org_id uuid, app_id uuid, project_id uuid, platform text, bundle_id text, rev bigint, settings jsonb)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT a.org_id, a.app_id, a.project_id, a.platform, a.bundle_id, c.rev, c.settings
    FROM app_ingest_configs c JOIN apps a ON a.app_id = c.app_id AND a.org_id = c.org_id
    WHERE c.publishable_key = p_key
$$;
REVOKE ALL ON FUNCTION publishable_key_ingest_app(text) FROM PUBLIC;

-- Nothing reads the org alone any more: one owner's function fewer for the application role.
DROP FUNCTION publishable_key_app(text);

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT EXECUTE ON FUNCTION publishable_key_ingest_app(text) TO handoff_app;
END
$$;
