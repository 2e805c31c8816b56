-- Install identities and device erasure (issue 20, docs/app-ingest.md "Identity" and "Erase").
--
-- Ingest rows, not events: a batch's `id{xid,em,emg,lid}` (SHA-256 hex as the SDK sent them) are the install's
-- account tokens, one row per (install, kind, token); the install is keyed as in 0029/0030 by `install_hash`
-- (HMAC-SHA256(lookup pepper, `appId:inst`)). `attribution` is whether the latest batch that carried the token granted
-- attribution (`cs`), which the `identity` install tier needs.
CREATE TABLE app_install_identities (
    org_id        uuid        NOT NULL,
    project_id    uuid        NOT NULL,
    app_id        uuid        NOT NULL,
    install_hash  text        NOT NULL CHECK (install_hash ~ '^[0-9a-f]{64}$'),
    kind          text        NOT NULL CHECK (kind IN ('xid', 'em', 'emg', 'lid')),
    token         text        NOT NULL CHECK (token ~ '^[0-9a-f]{64}$'),
    attribution   boolean     NOT NULL,
    first_seen_at timestamptz NOT NULL,
    last_seen_at  timestamptz NOT NULL,
    PRIMARY KEY (app_id, install_hash, kind, token)
);
-- The server-side erase (`POST /v1/projects/{project}/app-users/erase`) finds a user's installs by token.
CREATE INDEX app_install_identities_token_idx ON app_install_identities (org_id, project_id, kind, token);

-- The erase proof of an install: the first `dp` (SHA-256 of the device's erase secret) a batch carried. Later batches
-- never replace it, so a batch sent with a guessed install id cannot take over an install's erasure.
CREATE TABLE app_install_erase_proofs (
    org_id       uuid        NOT NULL,
    app_id       uuid        NOT NULL,
    install_hash text        NOT NULL CHECK (install_hash ~ '^[0-9a-f]{64}$'),
    proof        text        NOT NULL CHECK (proof ~ '^[0-9a-f]{64}$'),
    recorded_at  timestamptz NOT NULL,
    PRIMARY KEY (app_id, install_hash)
);

-- An erasure finds an install's ingest rows by its hash; on the partitioned parents, so every partition (also those
-- made later) has the index.
CREATE INDEX ingest_sessions_install_idx ON ingest_sessions (app_id, install_hash);
CREATE INDEX ingest_events_install_idx ON ingest_events (app_id, install_hash);
CREATE INDEX ingest_screen_views_install_idx ON ingest_screen_views (app_id, install_hash);

DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['app_install_identities', 'app_install_erase_proofs'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY org_scope ON %I '
                       'USING (strpos(current_setting(''handoff.org_id'', true), org_id::text) > 0) '
                       'WITH CHECK (strpos(current_setting(''handoff.org_id'', true), org_id::text) > 0)', t);
    END LOOP;
END
$$;

-- Destroys the personal-data key of an erased install (`app-install:<install hash>`, which seals its leads' contact
-- data), in the transaction that appended its `AppInstallErased` (erasure id `p_erasure_id`) — the application role
-- has no UPDATE on `subject_keys`, so this is its only way to destroy a key that exists, and only for an erasure the
-- transaction's org recorded.
CREATE FUNCTION app_install_erase(p_org uuid, p_app uuid, p_install_hash text, p_erasure_id uuid) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF strpos(coalesce(current_setting('handoff.org_id', true), ''), p_org::text) = 0 THEN
        RAISE EXCEPTION 'app_install_erase: org is not in the transaction''s scope'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_install_hash !~ '^[0-9a-f]{64}$' THEN
        RAISE EXCEPTION 'app_install_erase: not an install hash' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM events e
                   WHERE e.org_id = p_org
                       AND e.stream_id = 'app-install-erasure-' || p_app::text || '-' || p_install_hash
                       AND e.event_type = 'AppInstallErased' AND e.data->>'erasureId' = p_erasure_id::text) THEN
        RAISE EXCEPTION 'app_install_erase: no AppInstallErased event records this erasure'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    INSERT INTO subject_keys (org_id, subject_id, wrapped_key, destroyed_at)
    VALUES (p_org, 'app-install:' || p_install_hash, NULL, now())
    ON CONFLICT (org_id, subject_id) DO UPDATE
        SET wrapped_key = NULL, destroyed_at = coalesce(subject_keys.destroyed_at, now());
END
$$;
REVOKE ALL ON FUNCTION app_install_erase(uuid, uuid, text, uuid) FROM PUBLIC;

-- The application role: identities are inserted and moved by batches; an erasure deletes an install's identities,
-- proof and ingest rows (0029's parents: the partitions hold no grant and are reached only through them).
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT SELECT, INSERT, DELETE, UPDATE (attribution, last_seen_at) ON app_install_identities TO handoff_app;
    GRANT SELECT, INSERT, DELETE ON app_install_erase_proofs TO handoff_app;
    GRANT DELETE ON ingest_sessions, ingest_events, ingest_screen_views TO handoff_app;
    GRANT EXECUTE ON FUNCTION app_install_erase(uuid, uuid, text, uuid) TO handoff_app;
END
$$;
