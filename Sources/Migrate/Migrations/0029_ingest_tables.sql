-- App ingest rows (issue 20, docs/app-ingest.md "Storage"): sessions, events and screen views the SDKs send. Not
-- events of the hash-chained log (ingest is orders of magnitude busier than purchases): plain tables partitioned by
-- UTC day, written in batches, and a retention that drops whole old partitions instead of deleting rows.
--
-- The parents live in `public` with row-level security and the application role's grants; the partitions live in
-- the schema `ingest_parts`, one per table and day (`ingest_events_20261201`), made and dropped only by the two
-- owner functions below, never granted to anyone: every read and write goes through the parents, where the policy
-- applies. `day` is the UTC date of the row's time corrected by the batch's clock offset (`serverNow − at`).
CREATE SCHEMA ingest_parts;
REVOKE ALL ON SCHEMA ingest_parts FROM PUBLIC;

-- One row per app session (`sid`) and day: when it was first and last seen, how many batches, and what sent them.
CREATE TABLE ingest_sessions (
    day          date        NOT NULL,
    org_id       uuid        NOT NULL,
    project_id   uuid        NOT NULL,
    app_id       uuid        NOT NULL,
    install_hash text        NOT NULL CHECK (install_hash ~ '^[0-9a-f]{64}$'),
    session_id   text        COLLATE "C" NOT NULL CHECK (length(session_id) BETWEEN 1 AND 64),
    started_at   timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL,
    batches      integer     NOT NULL CHECK (batches > 0),
    sdk          text        CHECK (length(sdk) <= 64),
    sdk_version  text        CHECK (length(sdk_version) <= 32),
    os_version   text        CHECK (length(os_version) <= 32),
    app_version  text        CHECK (length(app_version) <= 64),
    consent      text        NOT NULL CHECK (consent ~ '^[gdpx]{4}$'),
    PRIMARY KEY (day, app_id, session_id)
) PARTITION BY RANGE (day);

-- One row per event; `(session, n)` is the SDK's own sequence number, so a re-sent event is stored once.
CREATE TABLE ingest_events (
    day          date        NOT NULL,
    org_id       uuid        NOT NULL,
    app_id       uuid        NOT NULL,
    install_hash text        NOT NULL CHECK (install_hash ~ '^[0-9a-f]{64}$'),
    session_id   text        COLLATE "C" NOT NULL CHECK (length(session_id) BETWEEN 1 AND 64),
    n            bigint      NOT NULL CHECK (n >= 0),
    name         text        NOT NULL CHECK (length(name) BETWEEN 1 AND 128),
    occurred_at  timestamptz NOT NULL,
    props        jsonb,
    received_at  timestamptz NOT NULL,
    PRIMARY KEY (day, app_id, session_id, n)
) PARTITION BY RANGE (day);

-- One row per screen view; a later send of the same view carries a higher `seq` and replaces the earlier state.
CREATE TABLE ingest_screen_views (
    day          date        NOT NULL,
    org_id       uuid        NOT NULL,
    app_id       uuid        NOT NULL,
    install_hash text        NOT NULL CHECK (install_hash ~ '^[0-9a-f]{64}$'),
    session_id   text        COLLATE "C" NOT NULL CHECK (length(session_id) BETWEEN 1 AND 64),
    view_id      text        COLLATE "C" NOT NULL CHECK (length(view_id) BETWEEN 1 AND 64),
    seq          integer     NOT NULL CHECK (seq >= 0),
    started_at   timestamptz NOT NULL,
    ended_at     timestamptz,
    nav          text        CHECK (length(nav) <= 32),
    path         text        CHECK (length(path) <= 256),
    engaged_ms   bigint      CHECK (engaged_ms >= 0),
    taps         integer     CHECK (taps >= 0),
    itaps        integer     CHECK (itaps >= 0),
    received_at  timestamptz NOT NULL,
    PRIMARY KEY (day, app_id, session_id, view_id)
) PARTITION BY RANGE (day);

DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['ingest_sessions', 'ingest_events', 'ingest_screen_views'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY org_scope ON %I '
                       'USING (strpos(current_setting(''handoff.org_id'', true), org_id::text) > 0) '
                       'WITH CHECK (strpos(current_setting(''handoff.org_id'', true), org_id::text) > 0)', t);
    END LOOP;
END
$$;

-- Makes the partitions of every ingest table for each day in [p_from, p_to] that does not have one yet (at most 62
-- days at once); returns how many it made. Serialized by an advisory lock, so concurrent callers do not collide.
CREATE FUNCTION ingest_ensure_partitions(p_from date, p_to date) RETURNS integer
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
        FOREACH v_table IN ARRAY ARRAY['ingest_sessions', 'ingest_events', 'ingest_screen_views'] LOOP
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

-- Drops every ingest partition of a day before p_before (retention: whole days, never row by row); returns how many.
CREATE FUNCTION ingest_drop_partitions(p_before date) RETURNS integer
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
          AND p.relname IN ('ingest_sessions', 'ingest_events', 'ingest_screen_views')
          AND c.relname ~ '_[0-9]{8}$'
          AND to_date(right(c.relname, 8), 'YYYYMMDD') < p_before
    LOOP
        EXECUTE format('DROP TABLE ingest_parts.%I', v_name);
        v_dropped := v_dropped + 1;
    END LOOP;
    RETURN v_dropped;
END
$$;

-- The days around the migration, so the first batches find their partitions (the retention job keeps them ahead).
SELECT ingest_ensure_partitions(current_date - 8, current_date + 2);

-- The application role: rows are inserted and read through the parents; a session's last sighting and a screen
-- view's state move; nothing is deleted but by dropping partitions.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT SELECT, INSERT, UPDATE (last_seen_at, batches, sdk, sdk_version, os_version, app_version, consent)
        ON ingest_sessions TO handoff_app;
    GRANT SELECT, INSERT ON ingest_events TO handoff_app;
    GRANT SELECT, INSERT, UPDATE (seq, started_at, ended_at, nav, path, engaged_ms, taps, itaps, received_at)
        ON ingest_screen_views TO handoff_app;
    GRANT EXECUTE ON FUNCTION ingest_ensure_partitions(date, date) TO handoff_app;
    GRANT EXECUTE ON FUNCTION ingest_drop_partitions(date) TO handoff_app;
END
$$;
REVOKE ALL ON FUNCTION ingest_ensure_partitions(date, date) FROM PUBLIC;
REVOKE ALL ON FUNCTION ingest_drop_partitions(date) FROM PUBLIC;
