-- App ingest (issue 20; docs/app-ingest.md "Sessions" and "Storage"): sessions that end after the app's timeout
-- without activity, and the SDK's wrapper kept next to the native SDK.
--
-- 1. "Sessions end after 30 minutes without activity": a `sid` is the SDK's, and a batch that comes more than the
--    app's `session.timeoutMs` (default 1 800 000 ms) after the stored session's last activity starts a new session.
--    Until now the row of (day, app, `sid`, install) was extended instead. A session row is now keyed by a `part`
--    too: 0 for the first session of a `sid` on a day, 1 for the next one after a gap, … Every read that counts rows
--    counts a part as a session; events and screen views stay keyed by `sid` (an event is stored once per `sid` and
--    `n`, whatever part it fell into). Rows written before keep part 0.
-- 2. A user agent `X3Kit/1.4.2 (iOS 17.5.1) RN/0.74.1` names the native SDK and a wrapper (React Native, Flutter).
--    `sdk`/`sdk_version` hold the native SDK now, the wrapper has its own columns. Rows written before this migration
--    hold the wrapper in `sdk` when there was one (the native SDK was not kept; nothing can restore it).
ALTER TABLE ingest_sessions ADD COLUMN part integer NOT NULL DEFAULT 0 CHECK (part >= 0);
ALTER TABLE ingest_sessions ADD COLUMN wrapper text CHECK (length(wrapper) <= 64);
ALTER TABLE ingest_sessions ADD COLUMN wrapper_version text CHECK (length(wrapper_version) <= 32);
ALTER TABLE ingest_sessions DROP CONSTRAINT ingest_sessions_pkey;
ALTER TABLE ingest_sessions ADD PRIMARY KEY (day, app_id, session_id, install_hash, part);

ALTER TABLE app_installs ADD COLUMN wrapper text;
ALTER TABLE app_installs ADD COLUMN wrapper_version text;

-- `ingest_write` (0042) with the session timeout and the wrapper. The checks stay once per batch: the org in the
-- transaction's scope, the install hash, the app the org's.
DROP FUNCTION ingest_write(uuid, uuid, uuid, text, text, bigint, bigint, text, text, text, text, text,
    text[], bigint[], text[], bigint[], jsonb[], text[], text[], integer[], bigint[], bigint[], text[], text[],
    bigint[], integer[], integer[]);

-- Writes one stored batch: its session part is inserted or extended; an event already stored (same session, install
-- and `n`) is skipped; a screen view replaces the stored one only with a higher `seq`. Times are Unix milliseconds;
-- `day` is the UTC date of each row's own time. A row whose day has no partition fails with 23514, as a direct
-- INSERT would (the caller makes the partitions and writes again).
--
-- The batch (its activity from p_started_ms to p_last_seen_ms) extends the part of its session on the day whose
-- activity is no more than p_session_timeout_ms away from the batch's (the latest such part: a late re-send lands
-- in the part it belongs to); without one it starts the part after the day's highest. Two batches of one session
-- written at the same moment that both start a part merge into it (ON CONFLICT): a session's batches come one after
-- another, so only retries meet, and they belong together.
CREATE FUNCTION ingest_write(
    p_org uuid, p_project uuid, p_app uuid, p_install_hash text,
    p_session text, p_started_ms bigint, p_last_seen_ms bigint, p_session_timeout_ms bigint,
    p_sdk text, p_sdk_version text, p_wrapper text, p_wrapper_version text, p_os_version text,
    p_app_version text, p_consent text,
    p_event_sessions text[], p_event_numbers bigint[], p_event_names text[], p_event_times bigint[],
    p_event_props jsonb[],
    p_view_sessions text[], p_view_ids text[], p_view_seqs integer[], p_view_starts bigint[], p_view_ends bigint[],
    p_view_navs text[], p_view_paths text[], p_view_engaged bigint[], p_view_taps integer[], p_view_itaps integer[]
) RETURNS void
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
    IF p_install_hash !~ '^[0-9a-f]{64}$' THEN
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
REVOKE ALL ON FUNCTION ingest_write(uuid, uuid, uuid, text, text, bigint, bigint, bigint, text, text, text, text,
    text, text, text, text[], bigint[], text[], bigint[], jsonb[], text[], text[], integer[], bigint[], bigint[],
    text[], text[], bigint[], integer[], integer[]) FROM PUBLIC;

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT EXECUTE ON FUNCTION ingest_write(uuid, uuid, uuid, text, text, bigint, bigint, bigint, text, text, text,
        text, text, text, text, text[], bigint[], text[], bigint[], jsonb[], text[], text[], integer[], bigint[],
        bigint[], text[], text[], bigint[], integer[], integer[]) TO handoff_app;
END
$$;
