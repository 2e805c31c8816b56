-- The batch write path of app ingest (issue 20's `bench/ingest`, docs/performance.md "bench/ingest"). A stored batch
-- is one session row, up to 500 event rows and 20 screen-view rows. Measured with pgbench on the statements the
-- server sent, Postgres spent about 5 ms of CPU per batch of 150 events, ~30 µs a row, against under 1 ms to COPY the
-- same rows into plain tables. Two per-row costs dominated and are removed here:
--
-- 1. The row-level-security policy, `strpos(current_setting('handoff.org_id', true), org_id::text) > 0`, evaluated
--    as WITH CHECK for every inserted row. Batches are now written by `ingest_write`, a SECURITY DEFINER function
--    that makes the same check once per batch (the org must be in the transaction's scope, and the app must be the
--    org's, so an upsert can never meet another org's row) and inserts as the owner. Reads, erasures and any direct
--    write still go through the policy.
-- 2. `install_hash` compared under the database's collation (C.UTF-8 through libc's strcoll) in every index that
--    holds it: it is 64 lowercase hex digits, so it is compared byte by byte now (COLLATE "C"). The per-row regular
--    expression checks on it in the event and screen-view tables go too: `ingest_write` checks it once per batch, and
--    the session row keeps its own check.

ALTER TABLE ingest_sessions ALTER COLUMN install_hash TYPE text COLLATE "C";
ALTER TABLE ingest_events ALTER COLUMN install_hash TYPE text COLLATE "C";
ALTER TABLE ingest_screen_views ALTER COLUMN install_hash TYPE text COLLATE "C";
ALTER TABLE ingest_events DROP CONSTRAINT ingest_events_install_hash_check;
ALTER TABLE ingest_screen_views DROP CONSTRAINT ingest_screen_views_install_hash_check;

-- Writes one stored batch: the session is inserted or its last sighting, batch count and SDK moved; an event already
-- stored (same session, install and `n`: the keys of 0040) is skipped; a screen view replaces the stored one only with a higher `seq` (each view
-- at most once in the arrays). Times are Unix milliseconds; `day` is the UTC date of each row's own time. A row whose
-- day has no partition fails with 23514, as a direct INSERT would (the caller makes the partitions and writes again).
CREATE FUNCTION ingest_write(
    p_org uuid, p_project uuid, p_app uuid, p_install_hash text,
    p_session text, p_started_ms bigint, p_last_seen_ms bigint, p_sdk text, p_sdk_version text, p_os_version text,
    p_app_version text, p_consent text,
    p_event_sessions text[], p_event_numbers bigint[], p_event_names text[], p_event_times bigint[],
    p_event_props jsonb[],
    p_view_sessions text[], p_view_ids text[], p_view_seqs integer[], p_view_starts bigint[], p_view_ends bigint[],
    p_view_navs text[], p_view_paths text[], p_view_engaged bigint[], p_view_taps integer[], p_view_itaps integer[]
) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF strpos(coalesce(current_setting('handoff.org_id', true), ''), p_org::text) = 0 THEN
        RAISE EXCEPTION 'ingest_write: org is not in the transaction''s scope' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_install_hash !~ '^[0-9a-f]{64}$' THEN
        RAISE EXCEPTION 'ingest_write: not an install hash' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM app_ingest_configs WHERE app_id = p_app AND org_id = p_org) THEN
        RAISE EXCEPTION 'ingest_write: the app is not the org''s' USING ERRCODE = 'insufficient_privilege';
    END IF;
    INSERT INTO ingest_sessions AS s (day, org_id, project_id, app_id, install_hash, session_id, started_at,
        last_seen_at, batches, sdk, sdk_version, os_version, app_version, consent)
    VALUES ((to_timestamp(p_started_ms / 1000.0) AT TIME ZONE 'UTC')::date, p_org, p_project, p_app, p_install_hash,
        p_session, to_timestamp(p_started_ms / 1000.0), to_timestamp(p_last_seen_ms / 1000.0), 1, p_sdk,
        p_sdk_version, p_os_version, p_app_version, p_consent)
    ON CONFLICT (day, app_id, session_id, install_hash) DO UPDATE SET
        last_seen_at = greatest(s.last_seen_at, EXCLUDED.last_seen_at), batches = s.batches + 1,
        sdk = EXCLUDED.sdk, sdk_version = EXCLUDED.sdk_version, os_version = EXCLUDED.os_version,
        app_version = EXCLUDED.app_version, consent = EXCLUDED.consent;
    -- Events: a plain INSERT first; only a batch that meets an event already stored (a re-send) pays for ON CONFLICT,
    -- whose speculative insertion costs every row more index work (pgbench, one run: 634 batches/s without it against
    -- 430–560 with it).
    IF cardinality(p_event_numbers) > 0 THEN
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
END
$$;
REVOKE ALL ON FUNCTION ingest_write(uuid, uuid, uuid, text, text, bigint, bigint, text, text, text, text, text,
    text[], bigint[], text[], bigint[], jsonb[], text[], text[], integer[], bigint[], bigint[], text[], text[],
    bigint[], integer[], integer[]) FROM PUBLIC;

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT EXECUTE ON FUNCTION ingest_write(uuid, uuid, uuid, text, text, bigint, bigint, text, text, text, text, text,
        text[], bigint[], text[], bigint[], jsonb[], text[], text[], integer[], bigint[], bigint[], text[], text[],
        bigint[], integer[], integer[]) TO handoff_app;
END
$$;
