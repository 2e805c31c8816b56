-- event_append (0009) made cheaper per call and per event; what it does and answers is unchanged.
--
-- 1. The CHECK constraints on `events` and `event_orgs` (0003) move into event_append, the one writer of both tables.
--    Postgres rebuilds a table's CHECK constraints from their catalog text (stringToNode) at the start of every
--    INSERT or UPDATE statement, and event_append runs one INSERT per event and one UPDATE per org: under callgrind
--    the nine constraints were 21 % of the server's instructions per event (643 k -> 509 k in calls of four
--    one-event commands for four orgs, 963 k -> 827 k for calls of one; docs/event-store.md "Benchmark"). Of what
--    they checked, the values a caller supplies (stream_id and event_type not empty, schema_version >= 1) are now
--    checked by event_append once per call, refusing the whole call with check_violation; the others (org_seq and
--    stream_version >= 1, 32-byte hashes, last_seq >= 0) are computed by event_append itself. A row written around
--    event_append (the application role may INSERT into events) cannot pass `handoff audit verify`, which
--    recomputes every hash and org_seq.
-- 2. The answer is a named composite type instead of RETURNS TABLE: Postgres built the RETURNS TABLE row type from
--    pg_proc's argument arrays on every call (build_function_result_tupdesc_t, ~60 k instructions), a named type
--    comes from the type cache. Each answer row is one expression instead of nine assignments: PL/pgSQL prepares
--    every expression once per transaction, and every call of event_append is usually a transaction of its own.
--    Together: 827 k -> 757 k instructions for a call of one command, 509 k -> 489 k per event in calls of four.
ALTER TABLE events
    DROP CONSTRAINT events_org_seq_check,
    DROP CONSTRAINT events_stream_id_check,
    DROP CONSTRAINT events_stream_version_check,
    DROP CONSTRAINT events_event_type_check,
    DROP CONSTRAINT events_schema_version_check,
    DROP CONSTRAINT events_prev_hash_check,
    DROP CONSTRAINT events_hash_check;
ALTER TABLE event_orgs
    DROP CONSTRAINT event_orgs_last_seq_check,
    DROP CONSTRAINT event_orgs_last_hash_check;

-- One row per item, as 0009 answered (AppendStatement reads the columns by these names).
CREATE TYPE event_append_result AS (
    item integer, outcome text, out_seq bigint, out_version bigint, out_global_pos bigint, out_tx_id xid8,
    out_recorded_at text, out_prev_hash bytea, out_hash bytea
);

DROP FUNCTION event_append(uuid[], text[], bigint[], boolean[], uuid[], text[], integer[], jsonb[], jsonb[], text[],
                           text[], text[], text[]);

-- Arguments, locking order, canonical text and outcomes exactly as described in 0009.
CREATE FUNCTION event_append(
    p_org uuid[], p_stream text[], p_expected bigint[], p_chained boolean[], p_event_id uuid[], p_event_type text[],
    p_schema_version integer[], p_data jsonb[], p_metadata jsonb[],
    p_head text[], p_after_seq text[], p_after_time text[], p_end text[]
) RETURNS SETOF event_append_result LANGUAGE plpgsql AS $$
DECLARE
    v_org        uuid;
    v_last_seq   bigint;
    v_last_hash  bytea;
    v_start_seq  bigint;
    v_now        timestamptz;
    v_now_text   text;
    v_current    bigint;
    v_hash       bytea;
    v_global_pos bigint;
    v_tx_id      xid8;
    v_refused    boolean := false;
BEGIN
    -- What the CHECK constraints of 0003 said about the values a caller supplies (the rest this function computes).
    IF '' = ANY (p_stream) OR '' = ANY (p_event_type) OR 1 > ANY (p_schema_version) THEN
        RAISE EXCEPTION 'event_append: %', CASE
            WHEN '' = ANY (p_stream) THEN 'stream_id must not be empty'
            WHEN '' = ANY (p_event_type) THEN 'event_type must not be empty'
            ELSE 'schema_version must be at least 1' END
            USING ERRCODE = 'check_violation';
    END IF;
    FOR i IN 1 .. coalesce(cardinality(p_stream), 0) LOOP
        IF v_org IS DISTINCT FROM p_org[i] THEN
            IF v_last_seq <> v_start_seq THEN
                UPDATE event_orgs SET last_seq = v_last_seq, last_hash = v_last_hash WHERE org_id = v_org;
            END IF;
            v_org := p_org[i];
            SELECT o.last_seq, o.last_hash INTO v_last_seq, v_last_hash
            FROM event_orgs o WHERE o.org_id = v_org FOR UPDATE;
            IF NOT FOUND THEN
                INSERT INTO event_orgs (org_id, last_seq, last_hash)
                VALUES (v_org, 0, decode(repeat('00', 32), 'hex')) ON CONFLICT DO NOTHING;
                SELECT o.last_seq, o.last_hash INTO v_last_seq, v_last_hash
                FROM event_orgs o WHERE o.org_id = v_org FOR UPDATE;
            END IF;
            v_start_seq := v_last_seq;
            v_now := clock_timestamp();
            v_now_text := to_char(v_now AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
            v_refused := false;
        ELSIF v_refused AND p_chained[i] THEN
            RETURN NEXT (i, 'skipped', NULL, NULL, NULL, NULL, NULL, NULL, NULL)::event_append_result;
            CONTINUE;
        END IF;
        -- ORDER BY … LIMIT 1 rather than max(): one backward step on events_stream_version_key (see 0009).
        SELECT e.stream_version INTO v_current
        FROM events e WHERE e.org_id = v_org AND e.stream_id = p_stream[i]
        ORDER BY e.stream_version DESC LIMIT 1;
        IF NOT FOUND THEN
            v_current := 0;
        END IF;
        v_refused := p_expected[i] IS NOT NULL AND v_current <> p_expected[i];
        IF v_refused THEN
            RETURN NEXT (i, 'wrong_version', NULL, v_current, NULL, NULL, NULL, NULL, NULL)::event_append_result;
            CONTINUE;
        END IF;
        v_current := v_current + 1;
        v_last_seq := v_last_seq + 1;
        v_hash := sha256(v_last_hash || convert_to(
            p_head[i] || v_last_seq || p_after_seq[i] || v_now_text || p_after_time[i] || v_current || p_end[i],
            'UTF8'));
        INSERT INTO events (org_id, org_seq, stream_id, stream_version, event_id, event_type, schema_version, data,
                            metadata, recorded_at, prev_hash, hash)
        VALUES (v_org, v_last_seq, p_stream[i], v_current, p_event_id[i], p_event_type[i], p_schema_version[i],
                p_data[i], p_metadata[i], v_now, v_last_hash, v_hash)
        RETURNING events.global_pos, events.tx_id INTO v_global_pos, v_tx_id;
        RETURN NEXT (i, 'appended', v_last_seq, v_current, v_global_pos, v_tx_id, v_now_text, v_last_hash,
                     v_hash)::event_append_result;
        v_last_hash := v_hash;
    END LOOP;
    IF v_last_seq <> v_start_seq THEN
        UPDATE event_orgs SET last_seq = v_last_seq, last_hash = v_last_hash WHERE org_id = v_org;
    END IF;
END
$$;

DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        EXECUTE 'GRANT EXECUTE ON FUNCTION event_append(uuid[], text[], bigint[], boolean[], uuid[], text[], '
            || 'integer[], jsonb[], jsonb[], text[], text[], text[], text[]) TO handoff_app';
    END IF;
END
$$;
