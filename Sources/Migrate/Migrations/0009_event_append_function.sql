-- The append as one server-side statement (docs/event-store.md, "Append"): lock the org's counter row, check each
-- command's expected version, insert its events with consecutive org_seq and chained hashes, move the counter row.
-- One call is one round trip; called outside BEGIN it is also its own transaction (one commit, one WAL flush).
--
-- Items are events in append order, grouped by org (p_org[i]); each org's counter row is locked when its first item
-- comes, so callers pass orgs in ascending order (two calls then never wait for each other in a cycle), and moved
-- after its last item. p_expected[i] is the version the stream must be at before item i (NULL: any);
-- p_chained[i] says item i belongs to the same command as item i-1: it is skipped when that command was refused.
-- The hash is SHA-256(prev_hash || C(n)) where C(n) is the UTF-8 of
--   p_head[i] || org_seq || p_after_seq[i] || recorded_at || p_after_time[i] || stream_version || p_end[i];
-- the pieces come from EventChain.CanonicalTemplate (Swift), the one implementation of the canonical form, so this
-- function only fills in the three values known under the lock. recorded_at is one clock reading per org, taken after
-- its lock, in the canonical text form (6 fraction digits, UTC), and stored as the same instant.
--
-- Answers one row per item: outcome 'appended' (with its org_seq, stream_version, global_pos, tx_id, recorded_at,
-- prev_hash, hash), 'wrong_version' (out_version = the stream's actual version) or 'skipped'.
-- A duplicate event_id aborts the whole statement with a unique violation (events_event_id_key).
CREATE FUNCTION event_append(
    p_org uuid[], p_stream text[], p_expected bigint[], p_chained boolean[], p_event_id uuid[], p_event_type text[],
    p_schema_version integer[], p_data jsonb[], p_metadata jsonb[],
    p_head text[], p_after_seq text[], p_after_time text[], p_end text[]
) RETURNS TABLE (
    item integer, outcome text, out_seq bigint, out_version bigint, out_global_pos bigint, out_tx_id xid8,
    out_recorded_at text, out_prev_hash bytea, out_hash bytea
) LANGUAGE plpgsql AS $$
DECLARE
    v_org       uuid;
    v_last_seq  bigint;
    v_last_hash bytea;
    v_start_seq bigint;
    v_now       timestamptz;
    v_now_text  text;
    v_current   bigint;
    v_refused   boolean := false;
BEGIN
    FOR i IN 1 .. coalesce(cardinality(p_stream), 0) LOOP
        IF v_org IS DISTINCT FROM p_org[i] THEN
            IF v_org IS NOT NULL AND v_last_seq <> v_start_seq THEN
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
        END IF;
        item := i;
        out_seq := NULL; out_version := NULL; out_global_pos := NULL; out_tx_id := NULL;
        out_recorded_at := NULL; out_prev_hash := NULL; out_hash := NULL;
        IF p_chained[i] AND v_refused THEN
            outcome := 'skipped';
            RETURN NEXT;
            CONTINUE;
        END IF;
        v_refused := false;
        -- ORDER BY … LIMIT 1 rather than max(): always one backward step on events_stream_version_key; the
        -- planner, without statistics on a young table, planned max() as a scan of the whole stream's entries.
        SELECT e.stream_version INTO v_current
        FROM events e WHERE e.org_id = v_org AND e.stream_id = p_stream[i]
        ORDER BY e.stream_version DESC LIMIT 1;
        IF NOT FOUND THEN
            v_current := 0;
        END IF;
        IF p_expected[i] IS NOT NULL AND v_current <> p_expected[i] THEN
            v_refused := true;
            outcome := 'wrong_version';
            out_version := v_current;
            RETURN NEXT;
            CONTINUE;
        END IF;
        out_seq := v_last_seq + 1;
        out_version := v_current + 1;
        out_recorded_at := v_now_text;
        out_prev_hash := v_last_hash;
        out_hash := sha256(v_last_hash || convert_to(
            p_head[i] || out_seq::text || p_after_seq[i] || v_now_text || p_after_time[i] || out_version::text
                || p_end[i], 'UTF8'));
        INSERT INTO events (org_id, org_seq, stream_id, stream_version, event_id, event_type, schema_version, data,
                            metadata, recorded_at, prev_hash, hash)
        VALUES (v_org, out_seq, p_stream[i], out_version, p_event_id[i], p_event_type[i], p_schema_version[i],
                p_data[i], p_metadata[i], v_now, v_last_hash, out_hash)
        RETURNING events.global_pos, events.tx_id INTO out_global_pos, out_tx_id;
        v_last_seq := out_seq;
        v_last_hash := out_hash;
        outcome := 'appended';
        RETURN NEXT;
    END LOOP;

    IF v_org IS NOT NULL AND v_last_seq <> v_start_seq THEN
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
