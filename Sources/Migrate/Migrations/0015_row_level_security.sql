-- Row-level security on every table that holds an org_id (issue 12 §6; docs/architecture.md "Tenant isolation in
-- the database"; docs/decisions.md, 2026-12-01).
--
-- Every such table gets one policy, `org_scope`, for every role but its owner (PUBLIC; the owner role — migrate,
-- replay, audit — is not subject to it, and nothing here FORCEs it): a row is visible, and may be written, only
-- when its org_id is in the transaction's scope, the setting `handoff.org_id` that the write model and the read
-- models set at the start of each transaction (EventStore `OrgScope`). Without the setting a role sees no row and
-- can write none.
--
-- What must happen before the org is known, or across orgs, goes through the SECURITY DEFINER functions below,
-- owned by the owner: each does one fixed thing — answer the org of one credential or public id, read the global
-- log, sweep expired fingerprints, move a job — and the application role may call them and nothing else of the
-- kind. Their `search_path` is pinned. `Tests/MigrateTests/RowSecurityTests.swift` tries every table.

-- The policy: a row's org is in the scope when `handoff.org_id` — one org id, or several separated by commas (a
-- group-commit batch), each in the canonical lowercase text `uuid::text` writes (any other spelling matches nothing);
-- empty or unset means none — contains `org_id::text`. A 36-character id without commas can only match a whole
-- element of such a list, so the substring test is exact; it costs one uuid_out and one scan of the setting's text
-- per row, where `org_id = ANY (string_to_array(…)::uuid[])` parsed every org of the list at every evaluation
-- (+13 % of the server's instructions for a one-event append, +53 % in a batch of eight orgs, against +6 % and
-- +15 % with this form; callgrind, docs/decisions.md). The expression is written into each policy, not wrapped in
-- an SQL function: the planner would parse an inlined function's body again for every statement it plans. Every
-- query of the service also names the org or a key, which the indexes serve.
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['events', 'event_orgs', 'subject_keys', 'organizations', 'projects', 'secret_keys',
                             'buyers', 'buyer_emails', 'payments', 'handoff_codes', 'fingerprints', 'jobs',
                             'recovery_mail_gaps'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY org_scope ON %I '
                       'USING (strpos(current_setting(''handoff.org_id'', true), org_id::text) > 0) '
                       'WITH CHECK (strpos(current_setting(''handoff.org_id'', true), org_id::text) > 0)', t);
    END LOOP;
END
$$;

-- Lookups before the org is known. Each answers for one exact key (a SHA-256 or keyed hash of a credential, or a
-- public id) and returns the org (and, for a secret key, the project and visible prefix) — never a row's other
-- columns. PL/pgSQL with SELECT … INTO, so their plans are cached per session (an SQL function that cannot be
-- inlined is planned on every call: 184 k instructions a call against 111 k under callgrind; `RETURN (SELECT …)`
-- cost 120 k).

-- Who a live secret key (by SHA-256 of its text) speaks for: the S2S authentication of every request.
CREATE FUNCTION secret_key_holder(p_key_hash bytea) RETURNS TABLE (org_id uuid, project_id uuid, prefix text)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    RETURN QUERY SELECT k.org_id, k.project_id, k.prefix FROM secret_keys k
        WHERE k.key_hash = p_key_hash AND k.revoked_at IS NULL;
END
$$;

-- The org of a project by its public id (devices name the project; `handoff admin` names it by id).
CREATE FUNCTION project_org(p_project_id uuid) RETURNS uuid
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_org uuid;
BEGIN
    SELECT p.org_id INTO v_org FROM projects p WHERE p.project_id = p_project_id;
    RETURN v_org;
END
$$;

-- The org of a handoff code or install token by its keyed hash: redemption and the post-payment page (its token
-- opens to the code).
CREATE FUNCTION handoff_code_org(p_code_hash text) RETURNS uuid
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_org uuid;
BEGIN
    SELECT c.org_id INTO v_org FROM handoff_codes c WHERE c.code_hash = p_code_hash;
    RETURN v_org;
END
$$;

-- The home org of a guid: a guid of another org is refused (VISITOR_ID_FOREIGN_PROJECT) before anything is recorded.
-- The argument takes the column's type, whatever an earlier migration made it.
CREATE FUNCTION buyer_org(p_guid buyers.guid%TYPE) RETURNS uuid
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_org uuid;
BEGIN
    SELECT b.org_id INTO v_org FROM buyers b WHERE b.guid = p_guid;
    RETURN v_org;
END
$$;

-- Cross-org consumers (subscriptions: the jobs dispatcher): the global log after a checkpoint, in (tx_id,
-- global_pos) order, behind the xid horizon (docs/event-store.md "Reading"), exactly as EventReader read it before.
CREATE FUNCTION event_read_global(p_tx_id xid8, p_global_pos bigint, p_limit integer) RETURNS SETOF events
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    RETURN QUERY SELECT e.* FROM events e
        WHERE (e.tx_id, e.global_pos) > (p_tx_id, p_global_pos)
          AND e.tx_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY e.tx_id, e.global_pos LIMIT p_limit;
END
$$;

-- The deployment-wide sweep of fingerprints that can no longer match (FingerprintSweep): at most p_limit rows whose
-- expiry is more than a minute behind the database clock (the margin is fixed here, so a caller cannot widen it).
CREATE FUNCTION fingerprints_sweep(p_limit integer) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_deleted integer;
BEGIN
    DELETE FROM fingerprints WHERE ctid IN (
        SELECT f.ctid FROM fingerprints f WHERE f.expires_at < now() - interval '1 minute' LIMIT p_limit);
    GET DIAGNOSTICS v_deleted = ROW_COUNT;
    RETURN v_deleted;
END
$$;

-- The jobs outbox is the workers' machinery across orgs (docs/jobs.md): the dispatcher inserts, the relay, the
-- workers and the sweeper move rows by id and state. Each step of Workers/JobStore is one function here; the
-- application role keeps no privilege on `jobs` itself. A worker that runs a job moves its transaction into the
-- job's org scope before the job's own reads and writes. `handoff jobs` (list, show, retry) runs as the owner.
CREATE FUNCTION job_insert(p_kind text, p_org uuid, p_payload jsonb, p_dedupe_key text, p_run_at timestamptz,
                           p_now timestamptz) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_job bigint;
BEGIN
    INSERT INTO jobs (kind, org_id, payload, dedupe_key, run_at, created_at, updated_at)
    VALUES (p_kind, p_org, p_payload, p_dedupe_key, p_run_at, p_now, p_now)
    ON CONFLICT (dedupe_key) DO NOTHING
    RETURNING jobs.job_id INTO v_job;
    RETURN v_job;
END
$$;

CREATE FUNCTION job_lock_due(p_now timestamptz, p_limit bigint) RETURNS TABLE (job_id bigint, kind text)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    RETURN QUERY SELECT j.job_id, j.kind FROM jobs j WHERE j.state = 'pending' AND j.run_at <= p_now
        ORDER BY j.run_at LIMIT p_limit FOR UPDATE OF j SKIP LOCKED;
END
$$;

CREATE FUNCTION job_mark_enqueued(p_job bigint, p_now timestamptz) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    UPDATE jobs SET state = 'enqueued', stream_entry = NULL, enqueued_at = p_now, updated_at = p_now
    WHERE jobs.job_id = p_job;
END
$$;

CREATE FUNCTION job_note_entries(p_jobs bigint[], p_entries text[]) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    UPDATE jobs SET stream_entry = e.entry
    FROM unnest(p_jobs, p_entries) AS e(job_id, entry)
    WHERE jobs.job_id = e.job_id AND jobs.job_id IN (
        SELECT j.job_id FROM jobs j
        WHERE j.job_id = ANY (p_jobs) AND j.state = 'enqueued' AND j.stream_entry IS NULL
        FOR UPDATE SKIP LOCKED);
END
$$;

CREATE FUNCTION job_lock_for_run(p_job bigint) RETURNS SETOF jobs
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    RETURN QUERY SELECT j.* FROM jobs j WHERE j.job_id = p_job FOR UPDATE SKIP LOCKED;
END
$$;

CREATE FUNCTION job_mark_done(p_job bigint, p_outcome text, p_now timestamptz) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    UPDATE jobs SET state = 'done', outcome = p_outcome, finished_at = p_now, updated_at = p_now
    WHERE jobs.job_id = p_job;
END
$$;

CREATE FUNCTION job_fail(p_job bigint, p_error text, p_dead boolean, p_run_at timestamptz, p_now timestamptz)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    UPDATE jobs SET attempt = attempt + 1, last_error = p_error,
                    state = CASE WHEN p_dead THEN 'dead' ELSE 'pending' END, run_at = p_run_at,
                    stream_entry = NULL, updated_at = p_now, finished_at = CASE WHEN p_dead THEN p_now END
    WHERE jobs.job_id = p_job;
END
$$;

CREATE FUNCTION job_lock_unchecked(p_before timestamptz, p_limit bigint)
RETURNS TABLE (job_id bigint, kind text, stream_entry text)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    RETURN QUERY SELECT j.job_id, j.kind, j.stream_entry FROM jobs j
        WHERE j.state = 'enqueued' AND j.updated_at < p_before
        ORDER BY j.updated_at LIMIT p_limit FOR UPDATE OF j SKIP LOCKED;
END
$$;

CREATE FUNCTION job_touch(p_job bigint, p_now timestamptz) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    UPDATE jobs SET updated_at = p_now WHERE jobs.job_id = p_job;
END
$$;

CREATE FUNCTION job_requeue(p_job bigint, p_entry text, p_now timestamptz) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    UPDATE jobs SET state = 'pending', stream_entry = NULL, run_at = p_now, updated_at = p_now
    WHERE jobs.job_id = p_job AND jobs.state = 'enqueued' AND jobs.stream_entry IS NOT DISTINCT FROM p_entry;
    RETURN FOUND;
END
$$;

-- Functions start with EXECUTE for PUBLIC; these are for the application role only. Functions the owner creates
-- from now on start with none (a later definer function must be granted on purpose).
DO $$
DECLARE
    f regprocedure;
BEGIN
    FOREACH f IN ARRAY ARRAY[
        'secret_key_holder(bytea)', 'project_org(uuid)', 'handoff_code_org(text)',
        'buyer_org(' || format_type((SELECT atttypid FROM pg_attribute
                                     WHERE attrelid = 'buyers'::regclass AND attname = 'guid'), NULL) || ')',
        'event_read_global(xid8, bigint, integer)', 'fingerprints_sweep(integer)',
        'job_insert(text, uuid, jsonb, text, timestamptz, timestamptz)', 'job_lock_due(timestamptz, bigint)',
        'job_mark_enqueued(bigint, timestamptz)', 'job_note_entries(bigint[], text[])', 'job_lock_for_run(bigint)',
        'job_mark_done(bigint, text, timestamptz)', 'job_fail(bigint, text, boolean, timestamptz, timestamptz)',
        'job_lock_unchecked(timestamptz, bigint)', 'job_touch(bigint, timestamptz)',
        'job_requeue(bigint, text, timestamptz)']::regprocedure[] LOOP
        EXECUTE format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', f);
        IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
            EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO handoff_app', f);
        END IF;
    END LOOP;
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        REVOKE ALL ON jobs FROM handoff_app;
    END IF;
END
$$;
ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;
