-- Pattern checks that cost a fraction of what they did (docs/performance.md "bench/ingest", session 2026-12-05 #11).
--
-- A profile of Postgres during `bench/ingest` put ~2 % of its time in `textregexeq`, called from the CHECK
-- constraints of single rows: `install_hash ~ '^[0-9a-f]{64}$'` and its kin. Postgres's regular expressions expand a
-- bounded repetition into that many states, so such a test costs ~11 µs per value on this machine, against ~0.5 µs
-- for the same rule spelled as a length and a negated class (measured over 100 000 values of 64 hex digits:
-- 1 397 ms against 394 ms, of which 347 ms made the values). The rule is the same: `x ~ '^[C]{n}$'` holds exactly when
-- `length(x) = n AND x !~ '[^C]'` does, and `x ~ '^[C]{m,n}$'` when `length(x) BETWEEN m AND n AND x !~ '[^C]'`
-- (`length` counts characters, as the repetition does; `$` is the end of the text).
--
-- Every CHECK constraint whose whole definition is one such test on one column is rewritten under its own name, on
-- the table that declares it (a partitioned parent passes it to its partitions). Constraints of another shape are
-- left as they are. Re-adding a CHECK validates the rows already stored.
DO $$
DECLARE
    c record;
    m text[];
    v_rule text;
BEGIN
    FOR c IN
        SELECT con.conrelid::regclass AS tbl, con.conname, pg_get_constraintdef(con.oid) AS def
        FROM pg_constraint con
        JOIN pg_class rel ON rel.oid = con.conrelid
        JOIN pg_namespace nsp ON nsp.oid = rel.relnamespace
        WHERE con.contype = 'c' AND con.coninhcount = 0 AND nsp.nspname = 'public'
        ORDER BY 1, 2
    LOOP
        m := regexp_match(c.def,
            '^CHECK \(\(([a-z_][a-z0-9_]*) ~ ''\^\[([^]'']+)\]\{([0-9]+)(,([0-9]+))?\}\$''::text\)\)$');
        CONTINUE WHEN m IS NULL;
        IF m[5] IS NULL THEN
            v_rule := format('length(%I) = %s', m[1], m[3]);
        ELSE
            v_rule := format('length(%I) BETWEEN %s AND %s', m[1], m[3], m[5]);
        END IF;
        v_rule := format('%s AND %I !~ %L', v_rule, m[1], '[^' || m[2] || ']');
        EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', c.tbl, c.conname);
        EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I CHECK (%s)', c.tbl, c.conname, v_rule);
    END LOOP;
END
$$;

-- `ingest_write` (0044) runs each of its statements with a plan made for the call: a generic plan of a statement on
-- a day-partitioned table costs every partition, so Postgres's plan cache never chose one, and planning (with the
-- partitions' constraints read back from text) was ~5 % of Postgres's time per batch. The generic plan prunes the
-- partitions when it runs.
ALTER FUNCTION ingest_write(uuid, uuid, uuid, text, text, bigint, bigint, bigint, text, text, text, text,
    text, text, text, text[], bigint[], text[], bigint[], jsonb[], text[], text[], integer[], bigint[], bigint[],
    text[], text[], bigint[], integer[], integer[]) SET plan_cache_mode = force_generic_plan;
