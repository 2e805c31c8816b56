-- The batch write of app ingest in one statement (docs/performance.md "bench/ingest", session 2026-12-05 #11):
-- `ingest_write` (0044) takes the batch's account tokens, its erase proof and the read of the install's tier too,
-- which were three or four more statements of the batch's pipeline, and the event table's per-row checks become one
-- check over the batch.
--
-- 1. The install's tokens (`app_install_identities`: every stored batch sets the attribution of those kept to its
--    own, and keeps the ones it names), the erase proof (kept if the install has none), and, when asked, the
--    install's recorded tier (what moves it to `identity`), as the statements of `IngestRowStore+Identity` did.
-- 2. `ingest_events` loses its CHECK constraints (session 1–64 characters, `n` ≥ 0, name 1–128 characters): a profile
--    of `bench/ingest` put ~7 % of Postgres's time in checking ~150 rows a batch and in reading the constraints back
--    from text for every statement. `ingest_write` checks the same rules once over the batch's arrays (in bytes, as
--    the server's parser does, which holds every value to them already), and no code writes events otherwise.
ALTER TABLE ingest_events DROP CONSTRAINT ingest_events_session_id_check;
ALTER TABLE ingest_events DROP CONSTRAINT ingest_events_n_check;
ALTER TABLE ingest_events DROP CONSTRAINT ingest_events_name_check;

DROP FUNCTION ingest_write(uuid, uuid, uuid, text, text, bigint, bigint, bigint, text, text, text, text,
    text, text, text, text[], bigint[], text[], bigint[], jsonb[], text[], text[], integer[], bigint[], bigint[],
    text[], text[], bigint[], integer[], integer[]);

-- Writes one stored batch, as 0044's did, then its account tokens and erase proof; answers the install's recorded
-- tier when p_read_tier (else NULL). Times are Unix milliseconds.
CREATE FUNCTION ingest_write(
    p_org uuid, p_project uuid, p_app uuid, p_install_hash text,
    p_session text, p_started_ms bigint, p_last_seen_ms bigint, p_session_timeout_ms bigint,
    p_sdk text, p_sdk_version text, p_wrapper text, p_wrapper_version text, p_os_version text,
    p_app_version text, p_consent text,
    p_event_sessions text[], p_event_numbers bigint[], p_event_names text[], p_event_times bigint[],
    p_event_props jsonb[],
    p_view_sessions text[], p_view_ids text[], p_view_seqs integer[], p_view_starts bigint[], p_view_ends bigint[],
    p_view_navs text[], p_view_paths text[], p_view_engaged bigint[], p_view_taps integer[], p_view_itaps integer[],
    p_attribution boolean, p_identity_kinds text[], p_identity_tokens text[], p_erase_proof text, p_read_tier boolean
) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_started timestamptz := to_timestamp(p_started_ms / 1000.0);
    v_last    timestamptz := to_timestamp(p_last_seen_ms / 1000.0);
    v_day     date := (to_timestamp(p_started_ms / 1000.0) AT TIME ZONE 'UTC')::date;
    v_timeout interval;
    v_top     integer;
    v_part    integer;
BEGIN
    IF strpos(coalesce(current_setting('handoff.org_id', true), ''), p_org::text) = 0 THEN
        RAISE EXCEPTION 'ingest_write: org is not in the transaction''s scope' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF length(p_install_hash) <> 64 OR p_install_hash ~ '[^0-9a-f]' THEN
        RAISE EXCEPTION 'ingest_write: not an install hash' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF p_session_timeout_ms IS NULL OR p_session_timeout_ms <= 0 THEN
        RAISE EXCEPTION 'ingest_write: the session timeout must be positive' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM app_ingest_configs WHERE app_id = p_app AND org_id = p_org) THEN
        RAISE EXCEPTION 'ingest_write: the app is not the org''s' USING ERRCODE = 'insufficient_privilege';
    END IF;
    v_timeout := p_session_timeout_ms * interval '1 millisecond';
    -- One look at the session's parts of the day (the primary key's prefix, one partition).
    SELECT max(s.part),
           (array_agg(s.part ORDER BY s.last_seen_at DESC)
                FILTER (WHERE s.last_seen_at >= v_started - v_timeout AND s.started_at <= v_last + v_timeout))[1]
    INTO v_top, v_part
    FROM ingest_sessions s
    WHERE s.day = v_day AND s.app_id = p_app AND s.session_id = p_session AND s.install_hash = p_install_hash;
    v_part := coalesce(v_part, v_top + 1, 0);
    INSERT INTO ingest_sessions AS s (day, org_id, project_id, app_id, install_hash, session_id, part, started_at,
        last_seen_at, batches, sdk, sdk_version, wrapper, wrapper_version, os_version, app_version, consent)
    VALUES (v_day, p_org, p_project, p_app, p_install_hash, p_session, v_part, v_started, v_last, 1, p_sdk,
        p_sdk_version, p_wrapper, p_wrapper_version, p_os_version, p_app_version, p_consent)
    ON CONFLICT (day, app_id, session_id, install_hash, part) DO UPDATE SET
        started_at = least(s.started_at, EXCLUDED.started_at),
        last_seen_at = greatest(s.last_seen_at, EXCLUDED.last_seen_at), batches = s.batches + 1,
        sdk = EXCLUDED.sdk, sdk_version = EXCLUDED.sdk_version, wrapper = EXCLUDED.wrapper,
        wrapper_version = EXCLUDED.wrapper_version, os_version = EXCLUDED.os_version,
        app_version = EXCLUDED.app_version, consent = EXCLUDED.consent;
    -- Events: a plain INSERT first; only a batch that meets an event already stored (a re-send) pays for ON CONFLICT
    -- (0042).
    IF cardinality(p_event_numbers) > 0 THEN
        -- The rules the event table checked per row until this migration, once over the batch (the server's parser
        -- holds every value to them already: 1–64 and 1–128 bytes, whole numbers ≥ 0).
        IF EXISTS (SELECT 1 FROM unnest(p_event_sessions, p_event_numbers, p_event_names) AS u(s, n, name)
                   WHERE u.s IS NULL OR u.n IS NULL OR u.name IS NULL OR octet_length(u.s) NOT BETWEEN 1 AND 64
                       OR u.n < 0 OR octet_length(u.name) NOT BETWEEN 1 AND 128) THEN
            RAISE EXCEPTION 'ingest_write: an event''s session (1 to 64 bytes), n (≥ 0) or name (1 to 128 bytes) is '
                'out of range' USING ERRCODE = 'check_violation';
        END IF;
        BEGIN
            INSERT INTO ingest_events (day, org_id, app_id, install_hash, session_id, n, name, occurred_at, props,
                received_at)
            SELECT (to_timestamp(u.t / 1000.0) AT TIME ZONE 'UTC')::date, p_org, p_app, p_install_hash, u.s, u.n,
                u.name, to_timestamp(u.t / 1000.0), u.p, now()
            FROM unnest(p_event_sessions, p_event_numbers, p_event_names, p_event_times, p_event_props)
                AS u(s, n, name, t, p);
        EXCEPTION WHEN unique_violation THEN
            INSERT INTO ingest_events (day, org_id, app_id, install_hash, session_id, n, name, occurred_at, props,
                received_at)
            SELECT (to_timestamp(u.t / 1000.0) AT TIME ZONE 'UTC')::date, p_org, p_app, p_install_hash, u.s, u.n,
                u.name, to_timestamp(u.t / 1000.0), u.p, now()
            FROM unnest(p_event_sessions, p_event_numbers, p_event_names, p_event_times, p_event_props)
                AS u(s, n, name, t, p)
            ON CONFLICT DO NOTHING;
        END;
    END IF;
    IF cardinality(p_view_ids) > 0 THEN
        INSERT INTO ingest_screen_views AS v (day, org_id, app_id, install_hash, session_id, view_id, seq, started_at,
            ended_at, nav, path, engaged_ms, taps, itaps, received_at)
        SELECT (to_timestamp(u.t0 / 1000.0) AT TIME ZONE 'UTC')::date, p_org, p_app, p_install_hash, u.s, u.id,
            u.seq, to_timestamp(u.t0 / 1000.0), to_timestamp(u.t1 / 1000.0), u.nav, u.path, u.eng, u.taps, u.itaps,
            now()
        FROM unnest(p_view_sessions, p_view_ids, p_view_seqs, p_view_starts, p_view_ends, p_view_navs, p_view_paths,
                    p_view_engaged, p_view_taps, p_view_itaps)
            AS u(s, id, seq, t0, t1, nav, path, eng, taps, itaps)
        ON CONFLICT (day, app_id, session_id, install_hash, view_id) DO UPDATE SET seq = EXCLUDED.seq,
            started_at = EXCLUDED.started_at, ended_at = EXCLUDED.ended_at, nav = EXCLUDED.nav, path = EXCLUDED.path,
            engaged_ms = EXCLUDED.engaged_ms, taps = EXCLUDED.taps, itaps = EXCLUDED.itaps,
            received_at = EXCLUDED.received_at
        WHERE v.seq < EXCLUDED.seq;
    END IF;
    -- The install's account tokens (0034): every stored batch sets the attribution of those already kept to its own
    -- `cs` (the identity tier follows the install's latest batch), and keeps the tokens it names.
    UPDATE app_install_identities SET attribution = p_attribution
    WHERE app_id = p_app AND install_hash = p_install_hash AND attribution <> p_attribution;
    IF cardinality(p_identity_kinds) > 0 THEN
        INSERT INTO app_install_identities AS i (org_id, project_id, app_id, install_hash, kind, token, attribution,
            first_seen_at, last_seen_at)
        SELECT p_org, p_project, p_app, p_install_hash, u.kind, u.token, p_attribution, now(), now()
        FROM unnest(p_identity_kinds, p_identity_tokens) AS u(kind, token)
        ON CONFLICT (app_id, install_hash, kind, token) DO UPDATE SET attribution = EXCLUDED.attribution,
            last_seen_at = EXCLUDED.last_seen_at;
    END IF;
    -- The erase proof (`dp`), kept only if the install has none.
    IF p_erase_proof IS NOT NULL THEN
        INSERT INTO app_install_erase_proofs (org_id, app_id, install_hash, proof, recorded_at)
        VALUES (p_org, p_app, p_install_hash, p_erase_proof, now()) ON CONFLICT (app_id, install_hash) DO NOTHING;
    END IF;
    -- The install's recorded tier, for the caller to move it to `identity` (NULL: not read, or not recorded yet).
    IF p_read_tier THEN
        RETURN (SELECT tier FROM app_installs WHERE app_id = p_app AND install_hash = p_install_hash);
    END IF;
    RETURN NULL;
END
$$;

ALTER FUNCTION ingest_write(uuid, uuid, uuid, text, text, bigint, bigint, bigint, text, text, text, text,
    text, text, text, text[], bigint[], text[], bigint[], jsonb[], text[], text[], integer[], bigint[], bigint[],
    text[], text[], bigint[], integer[], integer[], boolean, text[], text[], text, boolean)
    SET plan_cache_mode = force_generic_plan;
REVOKE ALL ON FUNCTION ingest_write(uuid, uuid, uuid, text, text, bigint, bigint, bigint, text, text, text, text,
    text, text, text, text[], bigint[], text[], bigint[], jsonb[], text[], text[], integer[], bigint[], bigint[],
    text[], text[], bigint[], integer[], integer[], boolean, text[], text[], text, boolean) FROM PUBLIC;

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT EXECUTE ON FUNCTION ingest_write(uuid, uuid, uuid, text, text, bigint, bigint, bigint, text, text, text, text,
    text, text, text, text[], bigint[], text[], bigint[], jsonb[], text[], text[], integer[], bigint[], bigint[],
    text[], text[], bigint[], integer[], integer[], boolean, text[], text[], text, boolean) TO handoff_app;
END
$$;
