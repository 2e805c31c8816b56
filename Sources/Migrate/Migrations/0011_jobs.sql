-- Jobs (DESIGN.md §7, docs/jobs.md): the outbox of the workers. A dispatcher subscription turns events into rows here
-- in the same transaction as its checkpoint; the relay moves due rows to a Redis Stream; workers mark them done in the
-- same transaction as the outcome event. Redis holds no truth: every job's state is this table.

CREATE TABLE jobs (
    job_id       bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind         text        NOT NULL CHECK (kind ~ '^[a-z][a-z0-9-]{0,62}$'),
    -- NULL for jobs that belong to no organization (e.g. the test-only `probe` kind).
    org_id       uuid,
    payload      jsonb       NOT NULL,
    -- Makes each job exist once: the dispatcher inserts with ON CONFLICT (dedupe_key) DO NOTHING.
    dedupe_key   text        NOT NULL,
    state        text        NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'enqueued', 'done', 'dead')),
    -- Failed attempts so far; the kind's retry ladder decides the next run_at or `dead`.
    attempt      integer     NOT NULL DEFAULT 0 CHECK (attempt >= 0),
    run_at       timestamptz NOT NULL,
    last_error   text,
    -- What the handler reported for a done job (e.g. `sent`, `skipped: no buyer with a payment`).
    outcome      text,
    -- The Redis Stream entry of the last enqueue, so the sweeper can ask whether Redis still holds it.
    stream_entry text,
    enqueued_at  timestamptz,
    finished_at  timestamptz,
    -- How often an operator revived this job from `dead` (`handoff jobs retry`).
    retries      integer     NOT NULL DEFAULT 0,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT jobs_dedupe_key_key UNIQUE (dedupe_key)
);
-- The relay: due pending jobs in run_at order.
CREATE INDEX jobs_due_idx ON jobs (run_at) WHERE state = 'pending';
-- The sweeper: jobs handed to Redis, least recently checked first (it touches updated_at of those Redis still holds).
CREATE INDEX jobs_enqueued_idx ON jobs (updated_at) WHERE state = 'enqueued';
-- `handoff jobs list --state … --org …`.
CREATE INDEX jobs_state_idx ON jobs (state, job_id);
CREATE INDEX jobs_org_idx ON jobs (org_id, job_id);

-- The silent gap of e-mail recovery: when the last recovery mail went to an address (by its lookup hash) in an org.
-- At most one mail per address per 20 minutes; kept in Postgres, not Redis, because Redis holds no truth.
CREATE TABLE recovery_mail_gaps (
    org_id       uuid        NOT NULL,
    email_hash   text        NOT NULL CHECK (email_hash ~ '^[0-9a-f]{64}$'),
    last_mail_at timestamptz NOT NULL,
    PRIMARY KEY (org_id, email_hash)
);

-- 0002 granted handoff_app SELECT, INSERT, UPDATE, DELETE on new tables: jobs and gaps are updated, never deleted by
-- the service.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        EXECUTE 'REVOKE DELETE, TRUNCATE ON jobs, recovery_mail_gaps FROM handoff_app';
        EXECUTE 'GRANT SELECT, INSERT, UPDATE ON jobs, recovery_mail_gaps TO handoff_app';
    END IF;
END
$$;
