-- event_append (0009) with the same arguments, answers and effects, rewritten to run a fixed number of SQL
-- statements per call instead of three per event (docs/event-store.md, "Benchmark"). Measured with callgrind on a
-- single-user backend, the per-event INSERT of 0009 spent most of its instructions starting an executor for each
-- row, above all re-reading the CHECK constraints of `events` from the catalog's node strings (ExecConstraints →
-- stringToNode) once per statement. Now, per call:
--   1. per org, in ascending order (callers pass orgs sorted, so concurrent calls never wait in a cycle): lock the
--      counter row (creating it when missing) and read last_seq and last_hash, as 0009 did;
--   2. one statement reads every item's stream version (one backward index step each) under those locks;
--   3. plain PL/pgSQL expressions check expected versions and compute org_seq, stream_version and the chained
--      hashes (streams that already got an item in this call continue from it), with one clock reading per org;
--   4. one INSERT of all appended events (in item order, so global_pos follows the items), one UPDATE of the
--      counter rows, and the answer rows joined with the INSERT's global_pos and tx_id.
-- The hash is unchanged: SHA-256(prev_hash || UTF-8 of p_head || org_seq || p_after_seq || recorded_at ||
-- p_after_time || stream_version || p_end), pieces from EventChain.CanonicalTemplate.
CREATE OR REPLACE FUNCTION event_append(
    p_org uuid[], p_stream text[], p_expected bigint[], p_chained boolean[], p_event_id uuid[], p_event_type text[],
    p_schema_version integer[], p_data jsonb[], p_metadata jsonb[],
    p_head text[], p_after_seq text[], p_after_time text[], p_end text[]
) RETURNS TABLE (
    item integer, outcome text, out_seq bigint, out_version bigint, out_global_pos bigint, out_tx_id xid8,
    out_recorded_at text, out_prev_hash bytea, out_hash bytea
) LANGUAGE plpgsql
-- Generic plans: a custom plan per call (the planner's default while it compares) planned and copied the argument
-- arrays as constants on every call.
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
    v_count     integer := coalesce(cardinality(p_stream), 0);
    v_org       uuid;
    v_last_seq  bigint;
    v_last_hash bytea;
    v_now       timestamptz;
    v_now_text  text;
    v_version   bigint;
    v_refused   boolean := false;
    v_streams   jsonb;
    v_current   bigint[];
    -- Per distinct org, in order: its counter row as locked.
    o_org       uuid[] := '{}';
    o_seq       bigint[] := '{}';
    o_hash      bytea[] := '{}';
    o_start     bigint[] := '{}';
    v_o         integer := 0;
    -- Per item: the answer.
    r_outcome   text[] := array_fill(NULL::text, ARRAY[v_count]);
    r_seq       bigint[] := array_fill(NULL::bigint, ARRAY[v_count]);
    r_version   bigint[] := array_fill(NULL::bigint, ARRAY[v_count]);
    r_time      text[] := array_fill(NULL::text, ARRAY[v_count]);
    r_at        timestamptz[] := array_fill(NULL::timestamptz, ARRAY[v_count]);
    r_prev      bytea[] := array_fill(NULL::bytea, ARRAY[v_count]);
    r_hash      bytea[] := array_fill(NULL::bytea, ARRAY[v_count]);
BEGIN
    IF v_count = 0 THEN
        RETURN;
    END IF;
    -- 1. Lock the counter rows, one org after the other in the order given (ascending), creating missing ones.
    -- (One statement for all orgs, `FOR UPDATE` over a join with the org array, measured more instructions per
    -- call than these index lookups: its generic plan hashes a scan of event_orgs.)
    FOR i IN 1 .. v_count LOOP
        IF v_org IS DISTINCT FROM p_org[i] THEN
            v_org := p_org[i];
            SELECT o.last_seq, o.last_hash INTO v_last_seq, v_last_hash
            FROM event_orgs o WHERE o.org_id = v_org FOR UPDATE;
            IF NOT FOUND THEN
                INSERT INTO event_orgs (org_id, last_seq, last_hash)
                VALUES (v_org, 0, decode(repeat('00', 32), 'hex')) ON CONFLICT DO NOTHING;
                SELECT o.last_seq, o.last_hash INTO v_last_seq, v_last_hash
                FROM event_orgs o WHERE o.org_id = v_org FOR UPDATE;
            END IF;
            o_org := o_org || v_org;
            o_seq := o_seq || v_last_seq;
            o_hash := o_hash || v_last_hash;
        END IF;
    END LOOP;
    o_start := o_seq;

    -- 2. Every item's stream version before this call (0 for a new stream). ORDER BY … LIMIT 1 rather than max():
    -- one backward step on events_stream_version_key.
    v_current := ARRAY(
        SELECT coalesce((SELECT e.stream_version FROM events e WHERE e.org_id = x.org AND e.stream_id = x.stream
                         ORDER BY e.stream_version DESC LIMIT 1), 0)
        FROM unnest(p_org, p_stream) WITH ORDINALITY AS x(org, stream, n) ORDER BY x.n);

    -- 3. Expected versions, org_seq, stream versions and hashes.
    v_org := NULL;
    FOR i IN 1 .. v_count LOOP
        IF v_org IS DISTINCT FROM p_org[i] THEN
            IF v_o > 0 THEN
                o_seq[v_o] := v_last_seq;
                o_hash[v_o] := v_last_hash;
            END IF;
            v_o := v_o + 1;
            v_org := p_org[i];
            v_last_seq := o_seq[v_o];
            v_last_hash := o_hash[v_o];
            v_now := clock_timestamp();
            v_now_text := to_char(v_now AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
            v_refused := false;
            v_streams := '{}';
        END IF;
        IF p_chained[i] AND v_refused THEN
            r_outcome[i] := 'skipped';
            CONTINUE;
        END IF;
        v_refused := false;
        v_version := coalesce((v_streams ->> p_stream[i])::bigint, v_current[i]);
        IF p_expected[i] IS NOT NULL AND v_version <> p_expected[i] THEN
            v_refused := true;
            r_outcome[i] := 'wrong_version';
            r_version[i] := v_version;
            CONTINUE;
        END IF;
        v_version := v_version + 1;
        v_streams := v_streams || jsonb_build_object(p_stream[i], v_version);
        r_outcome[i] := 'appended';
        r_seq[i] := v_last_seq + 1;
        r_version[i] := v_version;
        r_time[i] := v_now_text;
        r_at[i] := v_now;
        r_prev[i] := v_last_hash;
        r_hash[i] := sha256(v_last_hash || convert_to(
            p_head[i] || r_seq[i]::text || p_after_seq[i] || v_now_text || p_after_time[i] || v_version::text
                || p_end[i], 'UTF8'));
        v_last_seq := r_seq[i];
        v_last_hash := r_hash[i];
    END LOOP;
    o_seq[v_o] := v_last_seq;
    o_hash[v_o] := v_last_hash;

    -- 4. The counter rows that moved, then the events in item order and the answer.
    UPDATE event_orgs o SET last_seq = c.seq, last_hash = c.hash
    FROM unnest(o_org, o_seq, o_hash, o_start) AS c(org, seq, hash, start)
    WHERE o.org_id = c.org AND c.seq <> c.start;

    RETURN QUERY
    WITH inserted AS (
        INSERT INTO events (org_id, org_seq, stream_id, stream_version, event_id, event_type, schema_version, data,
                            metadata, recorded_at, prev_hash, hash)
        SELECT p_org[x.n], r_seq[x.n], p_stream[x.n], r_version[x.n], p_event_id[x.n], p_event_type[x.n],
               p_schema_version[x.n], p_data[x.n], p_metadata[x.n], r_at[x.n], r_prev[x.n], r_hash[x.n]
        FROM generate_series(1, v_count) AS x(n)
        WHERE r_outcome[x.n] = 'appended'
        ORDER BY x.n
        RETURNING events.org_id, events.org_seq, events.global_pos, events.tx_id
    )
    SELECT x.n, r_outcome[x.n], r_seq[x.n], r_version[x.n], i.global_pos, i.tx_id, r_time[x.n], r_prev[x.n],
           r_hash[x.n]
    FROM generate_series(1, v_count) AS x(n)
    LEFT JOIN inserted i ON i.org_id = p_org[x.n] AND i.org_seq = r_seq[x.n]
    ORDER BY x.n;
END
$$;
