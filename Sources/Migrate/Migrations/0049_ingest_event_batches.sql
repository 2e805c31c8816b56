-- A batch's events as one row (docs/performance.md "bench/ingest: a batch's events in one row", session
-- 2026-12-05 #12). `ingest_events` kept one row and one primary-key entry per event, ~150 of each per batch: a
-- profile of `bench/ingest` put about half of Postgres's time per batch in those index entries (pgbench on the same
-- 149 rows: 713–840 batches/s with the key, 1 505–1 935 without). Now the events a batch stores for one session and
-- UTC day are one row of `ingest_event_batches`, their fields in parallel arrays in rising `n` (times as Unix
-- milliseconds, properties as `json`, every array compressed with lz4), and
-- `ingest_events` becomes a view with the old table's columns, one row per event, for every reader.
--
-- Deduplication by (app, install, session, day, n) stays: `ingest_write` takes a transaction lock on the install and
-- stores only the numbers its session and day do not have yet. An erasure deletes an install's rows as before (the key
-- starts with app and install); retention drops day partitions. The table has no CHECK: `ingest_write`, the only
-- writer, checks each rule once per batch (as 0048 did for the old table), where Postgres would otherwise read every
-- constraint back from text for each statement.
CREATE TABLE ingest_event_batches (
    day          date        NOT NULL,
    org_id       uuid        NOT NULL,
    app_id       uuid        NOT NULL,
    install_hash text        NOT NULL,
    session_id   text        COLLATE "C" NOT NULL,
    first_n      bigint      NOT NULL,
    event_ns     bigint[]    COMPRESSION lz4 NOT NULL,
    event_names  text[]      COMPRESSION lz4 NOT NULL,
    event_ms     bigint[]    COMPRESSION lz4 NOT NULL,
    event_props  json[]      COMPRESSION lz4 NOT NULL,
    received_at  timestamptz NOT NULL,
    PRIMARY KEY (app_id, install_hash, session_id, first_n, day)
) PARTITION BY RANGE (day);

ALTER TABLE ingest_event_batches ENABLE ROW LEVEL SECURITY;
CREATE POLICY org_scope ON ingest_event_batches
    USING (strpos(current_setting('handoff.org_id', true), org_id::text) > 0)
    WITH CHECK (strpos(current_setting('handoff.org_id', true), org_id::text) > 0);

-- A partition of the new table for every day that has one of the old (and the days the functions below keep ahead).
DO $$
DECLARE
    v_day date;
    v_name text;
BEGIN
    FOR v_day IN
        SELECT to_date(right(c.relname, 8), 'YYYYMMDD') FROM pg_class c
            JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_inherits i ON i.inhrelid = c.oid JOIN pg_class p ON p.oid = i.inhparent
        WHERE n.nspname = 'ingest_parts' AND p.relname = 'ingest_events' AND c.relname ~ '_[0-9]{8}$'
    LOOP
        v_name := 'ingest_event_batches_' || to_char(v_day, 'YYYYMMDD');
        EXECUTE format('CREATE TABLE ingest_parts.%I PARTITION OF public.ingest_event_batches '
                       'FOR VALUES FROM (%L) TO (%L)', v_name, v_day, v_day + 1);
        EXECUTE format('ALTER TABLE ingest_parts.%I ENABLE ROW LEVEL SECURITY', v_name);
    END LOOP;
END
$$;

-- The stored events, one row per batch as they arrived: a batch's rows share their `received_at` (its transaction's
-- time), and its numbers are distinct within a session and day (the old primary key).
INSERT INTO ingest_event_batches (day, org_id, app_id, install_hash, session_id, first_n, event_ns, event_names,
    event_ms, event_props, received_at)
SELECT day, org_id, app_id, install_hash, session_id, min(n), array_agg(n ORDER BY n), array_agg(name ORDER BY n),
    array_agg((extract(epoch FROM occurred_at) * 1000)::bigint ORDER BY n), array_agg(props::json ORDER BY n),
    received_at
FROM ingest_events
GROUP BY day, org_id, app_id, install_hash, session_id, received_at;

DROP TABLE ingest_events;

-- Every reader's view of the events, one row per event as the table had them; the caller's row-level security
-- applies (security_invoker).
CREATE VIEW ingest_events WITH (security_invoker = true) AS
SELECT b.day, b.org_id, b.app_id, b.install_hash, b.session_id, e.n, e.name, to_timestamp(e.ms / 1000.0) AS occurred_at,
    e.props::jsonb AS props, b.received_at
FROM ingest_event_batches b
    CROSS JOIN LATERAL unnest(b.event_ns, b.event_names, b.event_ms, b.event_props) AS e(n, name, ms, props);

-- The partition functions of 0029 with the new table in place of the old.
CREATE OR REPLACE FUNCTION ingest_ensure_partitions(p_from date, p_to date) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_day   date;
    v_table text;
    v_name  text;
    v_made  integer := 0;
BEGIN
    IF p_from IS NULL OR p_to IS NULL OR p_to < p_from OR p_to - p_from > 62 THEN
        RAISE EXCEPTION 'ingest_ensure_partitions: give 1 to 63 days' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('ingest_partitions'));
    FOR v_day IN SELECT generate_series(p_from, p_to, interval '1 day')::date LOOP
        FOREACH v_table IN ARRAY ARRAY['ingest_sessions', 'ingest_event_batches', 'ingest_screen_views'] LOOP
            v_name := v_table || '_' || to_char(v_day, 'YYYYMMDD');
            CONTINUE WHEN to_regclass('ingest_parts.' || v_name) IS NOT NULL;
            EXECUTE format('CREATE TABLE ingest_parts.%I PARTITION OF public.%I FOR VALUES FROM (%L) TO (%L)',
                           v_name, v_table, v_day, v_day + 1);
            EXECUTE format('ALTER TABLE ingest_parts.%I ENABLE ROW LEVEL SECURITY', v_name);
            v_made := v_made + 1;
        END LOOP;
    END LOOP;
    RETURN v_made;
END
$$;

CREATE OR REPLACE FUNCTION ingest_drop_partitions(p_before date) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_name    text;
    v_dropped integer := 0;
BEGIN
    IF p_before IS NULL THEN
        RAISE EXCEPTION 'ingest_drop_partitions: give a day' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('ingest_partitions'));
    FOR v_name IN
        SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_inherits i ON i.inhrelid = c.oid JOIN pg_class p ON p.oid = i.inhparent
        WHERE n.nspname = 'ingest_parts'
          AND p.relname IN ('ingest_sessions', 'ingest_event_batches', 'ingest_screen_views')
          AND c.relname ~ '_[0-9]{8}$'
          AND to_date(right(c.relname, 8), 'YYYYMMDD') < p_before
    LOOP
        EXECUTE format('DROP TABLE ingest_parts.%I', v_name);
        v_dropped := v_dropped + 1;
    END LOOP;
    RETURN v_dropped;
END
$$;

-- 0048's batch write, its events stored as above; their properties come as `json` (checked, not parsed into a tree
-- and sorted as `jsonb` was). Within a batch the first of equal (session, day, n) wins, and a
-- number already stored for its session and day is left out, as the old key's ON CONFLICT DO NOTHING did.
DROP FUNCTION ingest_write(uuid, uuid, uuid, text, text, bigint, bigint, bigint, text, text, text, text,
    text, text, text, text[], bigint[], text[], bigint[], jsonb[], text[], text[], integer[], bigint[], bigint[],
    text[], text[], bigint[], integer[], integer[], boolean, text[], text[], text, boolean);

CREATE FUNCTION ingest_write(
    p_org uuid, p_project uuid, p_app uuid, p_install_hash text,
    p_session text, p_started_ms bigint, p_last_seen_ms bigint, p_session_timeout_ms bigint,
    p_sdk text, p_sdk_version text, p_wrapper text, p_wrapper_version text, p_os_version text,
    p_app_version text, p_consent text,
    p_event_sessions text[], p_event_numbers bigint[], p_event_names text[], p_event_times bigint[],
    p_event_props json[],
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
    v_events  integer;
    v_first_s text;
    v_day_ms  bigint;
    v_event_day date;
    v_bad     boolean;
    v_one_run boolean;
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
    v_events := coalesce(cardinality(p_event_numbers), 0);
    IF v_events > 0 THEN
        IF coalesce(cardinality(p_event_sessions), 0) <> v_events OR coalesce(cardinality(p_event_names), 0) <> v_events
           OR coalesce(cardinality(p_event_times), 0) <> v_events
           OR coalesce(cardinality(p_event_props), 0) <> v_events THEN
            RAISE EXCEPTION 'ingest_write: the event arrays differ in length' USING ERRCODE = 'invalid_parameter_value';
        END IF;
        -- One pass over the batch: the rules the event table checked per row until 0048 (the server's parser holds
        -- every value to them already: 1–64 and 1–128 bytes, whole numbers ≥ 0), and whether the events are one
        -- session and UTC day in rising `n` (what the server sends for a batch of one session).
        v_first_s := p_event_sessions[1];
        v_day_ms := p_event_times[1] - ((p_event_times[1] % 86400000) + 86400000) % 86400000;
        SELECT bool_or(u.s IS NULL OR u.n IS NULL OR u.name IS NULL OR u.t IS NULL
                       OR octet_length(u.s) NOT BETWEEN 1 AND 64 OR u.n < 0
                       OR octet_length(u.name) NOT BETWEEN 1 AND 128),
               bool_and(u.s = v_first_s AND u.t >= v_day_ms AND u.t < v_day_ms + 86400000
                        AND (u.o = 1 OR u.n > p_event_numbers[u.o - 1]))
        INTO v_bad, v_one_run
        FROM unnest(p_event_sessions, p_event_numbers, p_event_names, p_event_times) WITH ORDINALITY
            AS u(s, n, name, t, o);
        IF v_bad THEN
            RAISE EXCEPTION 'ingest_write: an event''s session (1 to 64 bytes), n (≥ 0) or name (1 to 128 bytes) is '
                'out of range' USING ERRCODE = 'check_violation';
        END IF;
        -- Batches of one install take turns from here to their commit, so each sees the numbers the one before kept.
        PERFORM pg_advisory_xact_lock(26213, hashtext(p_app::text || p_install_hash));
        v_event_day := date '1970-01-01' + (v_day_ms / 86400000)::integer;
        IF v_one_run AND NOT EXISTS (
            SELECT 1 FROM ingest_event_batches b
            WHERE b.app_id = p_app AND b.install_hash = p_install_hash AND b.session_id = v_first_s
              AND b.day = v_event_day) THEN
            -- The common batch: the arrays as given, one row.
            INSERT INTO ingest_event_batches (day, org_id, app_id, install_hash, session_id, first_n, event_ns,
                event_names, event_ms, event_props, received_at)
            VALUES (v_event_day, p_org, p_app, p_install_hash, v_first_s, p_event_numbers[1], p_event_numbers,
                p_event_names, p_event_times, p_event_props, now());
        ELSE
            -- Several sessions or days, numbers out of order or repeated, or a session and day with events already:
            -- per session and day, the first of equal numbers, less those stored, in rising `n`.
            WITH given AS (
                SELECT DISTINCT ON (u.day, u.s, u.n) u.day, u.s, u.n, u.name, u.t, u.p
                FROM (SELECT date '1970-01-01' + ((x.t - ((x.t % 86400000) + 86400000) % 86400000) / 86400000)::integer
                             AS day, x.s, x.n, x.name, x.t, x.p, x.o
                      FROM unnest(p_event_sessions, p_event_numbers, p_event_names, p_event_times, p_event_props)
                          WITH ORDINALITY AS x(s, n, name, t, p, o)) u
                ORDER BY u.day, u.s, u.n, u.o
            ), stored AS (
                SELECT b.day, b.session_id AS s, k.n
                FROM ingest_event_batches b CROSS JOIN LATERAL unnest(b.event_ns) AS k(n)
                WHERE b.app_id = p_app AND b.install_hash = p_install_hash
                  AND (b.session_id, b.day) IN (SELECT DISTINCT g.s, g.day FROM given g)
            )
            INSERT INTO ingest_event_batches (day, org_id, app_id, install_hash, session_id, first_n, event_ns,
                event_names, event_ms, event_props, received_at)
            SELECT e.day, p_org, p_app, p_install_hash, e.s, min(e.n), array_agg(e.n ORDER BY e.n),
                array_agg(e.name ORDER BY e.n), array_agg(e.t ORDER BY e.n), array_agg(e.p ORDER BY e.n), now()
            FROM given e
            WHERE NOT EXISTS (SELECT 1 FROM stored k WHERE k.day = e.day AND k.s = e.s AND k.n = e.n)
            GROUP BY e.day, e.s;
        END IF;
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

-- Generic plans, as 0048's (one partition per call).
ALTER FUNCTION ingest_write(uuid, uuid, uuid, text, text, bigint, bigint, bigint, text, text, text, text,
    text, text, text, text[], bigint[], text[], bigint[], json[], text[], text[], integer[], bigint[], bigint[],
    text[], text[], bigint[], integer[], integer[], boolean, text[], text[], text, boolean)
    SET plan_cache_mode = force_generic_plan;
REVOKE ALL ON FUNCTION ingest_write(uuid, uuid, uuid, text, text, bigint, bigint, bigint, text, text, text, text,
    text, text, text, text[], bigint[], text[], bigint[], json[], text[], text[], integer[], bigint[], bigint[],
    text[], text[], bigint[], integer[], integer[], boolean, text[], text[], text, boolean) FROM PUBLIC;

-- The application role reads the events through the view and the rows beneath it; it deletes an install's rows
-- (erasure). It keeps INSERT on the table, as it had on the old one, so row-level security is tested the same way.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT SELECT, INSERT, DELETE ON ingest_event_batches TO handoff_app;
    GRANT SELECT ON ingest_events TO handoff_app;
    GRANT EXECUTE ON FUNCTION ingest_write(uuid, uuid, uuid, text, text, bigint, bigint, bigint, text, text, text, text,
    text, text, text, text[], bigint[], text[], bigint[], json[], text[], text[], integer[], bigint[], bigint[],
    text[], text[], bigint[], integer[], integer[], boolean, text[], text[], text, boolean) TO handoff_app;
END
$$;
