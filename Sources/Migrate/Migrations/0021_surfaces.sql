-- Surfaces (issue 15, docs/affiliates.md "Forwarded notifications (surfaces)"): where a developer's own server
-- forwards its iOS app's App Store notifications, `POST /v1/app-store/assn/{surfaceId}`, signed with the surface's
-- forwarding secret. Written only by the inline projection `SurfaceProjection`; rebuilt from the log by
-- `handoff replay`.
--
-- The secrets are kept only sealed, as `pd1.…` text under the personal-data key of the app's subject `app:<appId>`
-- (field `forwardingSecret`), exactly as the events carry them: checking an HMAC needs the key itself. After a
-- rotation the replaced secret stays, with the instant its grace period ends; a second rotation replaces it.
CREATE TABLE surfaces (
    surface_id             uuid        PRIMARY KEY,
    org_id                 uuid        NOT NULL,
    app_id                 uuid        NOT NULL,
    sealed_secret          text        NOT NULL CHECK (sealed_secret LIKE 'pd1.%'),
    previous_sealed_secret text        CHECK (previous_sealed_secret LIKE 'pd1.%'),
    previous_valid_until   timestamptz,
    created_at             timestamptz NOT NULL,
    rotated_at             timestamptz,
    CHECK ((previous_sealed_secret IS NULL) = (previous_valid_until IS NULL)),
    CHECK ((previous_sealed_secret IS NULL) = (rotated_at IS NULL))
);
CREATE INDEX surfaces_app_id_idx ON surfaces (app_id, created_at);

-- Row-level security, as 0015 gives every table with an org_id.
ALTER TABLE surfaces ENABLE ROW LEVEL SECURITY;
CREATE POLICY org_scope ON surfaces
    USING (strpos(current_setting('handoff.org_id', true), org_id::text) > 0)
    WITH CHECK (strpos(current_setting('handoff.org_id', true), org_id::text) > 0);

-- The org of a surface by its id (as 0017's `app_org`: one exact key in, the org and nothing else out): the
-- unauthenticated forwarding URL and `handoff admin surface …` name the surface only.
CREATE FUNCTION surface_org(p_surface_id uuid) RETURNS uuid
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_org uuid;
BEGIN
    SELECT s.org_id INTO v_org FROM surfaces s WHERE s.surface_id = p_surface_id;
    RETURN v_org;
END
$$;

-- Privileges of the application role (0014's list, continued): rows are inserted and read; a rotation moves the
-- secrets; nothing is deleted. The function is for the application role only.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT SELECT, INSERT, UPDATE (sealed_secret, previous_sealed_secret, previous_valid_until, rotated_at)
        ON surfaces TO handoff_app;
    GRANT EXECUTE ON FUNCTION surface_org(uuid) TO handoff_app;
END
$$;
REVOKE ALL ON FUNCTION surface_org(uuid) FROM PUBLIC;
