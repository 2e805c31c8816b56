-- Two-phase jobs and the delivery log of store-notification forwards (issue 14; docs/jobs.md "One job, in a worker",
-- docs/store-notifications.md "Forwarding").
--
-- 1. Jobs: no database transaction is held open across a job's network I/O any more. A worker claims the attempt
--    (attempt_id, attempt_started_at, lease_until) and commits; does the I/O outside any transaction; then records
--    the outcome in a new transaction, only if the job still carries its attempt id. A job whose lease has not
--    passed belongs to the worker that claimed it; once it passed (that worker crashed), the next worker claims a
--    new attempt. `memo` keeps what a kind fixed at its first attempt so that retries send identical bytes (the
--    attribloom timestamp).
ALTER TABLE jobs
    ADD COLUMN attempt_id         uuid,
    ADD COLUMN attempt_started_at timestamptz,
    ADD COLUMN lease_until        timestamptz,
    ADD COLUMN memo               jsonb NOT NULL DEFAULT '{}';

CREATE FUNCTION job_claim(p_job bigint, p_attempt uuid, p_now timestamptz, p_lease_until timestamptz) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    UPDATE jobs SET attempt_id = p_attempt, attempt_started_at = p_now, lease_until = p_lease_until,
                    updated_at = p_now
    WHERE jobs.job_id = p_job AND jobs.state = 'enqueued';
END
$$;

CREATE FUNCTION job_remember(p_job bigint, p_memo jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    UPDATE jobs SET memo = p_memo WHERE jobs.job_id = p_job;
END
$$;

-- The outcome transaction waits for a row lock another step holds for a moment (the relay noting entry ids, a
-- claim that finds the lease alive); the statement timeout bounds the wait.
CREATE FUNCTION job_lock_for_outcome(p_job bigint) RETURNS SETOF jobs
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    RETURN QUERY SELECT j.* FROM jobs j WHERE j.job_id = p_job FOR UPDATE;
END
$$;

-- A finished or failed attempt ends the lease; the attempt id stays as the record of the last attempt.
CREATE OR REPLACE FUNCTION job_mark_done(p_job bigint, p_outcome text, p_now timestamptz) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    UPDATE jobs SET state = 'done', outcome = p_outcome, finished_at = p_now, updated_at = p_now, lease_until = NULL
    WHERE jobs.job_id = p_job;
END
$$;

CREATE OR REPLACE FUNCTION job_fail(p_job bigint, p_error text, p_dead boolean, p_run_at timestamptz,
                                    p_now timestamptz) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    UPDATE jobs SET attempt = attempt + 1, last_error = p_error,
                    state = CASE WHEN p_dead THEN 'dead' ELSE 'pending' END, run_at = p_run_at,
                    stream_entry = NULL, updated_at = p_now, finished_at = CASE WHEN p_dead THEN p_now END,
                    lease_until = NULL
    WHERE jobs.job_id = p_job;
END
$$;

-- 2. Recovery mail in two phases: the 20-minute gap counts mails SMTP accepted (last_mail_at moves in the outcome
--    transaction); while a mail is on its way the address is reserved for its job, so a second job for the address
--    waits (a retryable failure) instead of mailing too. A reservation past its lease is free again.
ALTER TABLE recovery_mail_gaps
    ADD COLUMN reserved_by_job bigint,
    ADD COLUMN reserved_until  timestamptz;

-- 3. Delivery attempts of forwards: one row per `NotificationForwarded` / `ForwardFailed` event, written by
--    DeliveryProjection in the outcome transaction (and by `handoff replay`). `org_seq` (the event's place in the
--    org's log) orders an app's deliveries and is the page cursor of `GET /s2s/v1/apps/{appId}/deliveries`.
CREATE TABLE store_deliveries (
    org_id                uuid        NOT NULL,
    event_id              uuid        NOT NULL,
    org_seq               bigint      NOT NULL,
    app_id                text        NOT NULL,
    notification_event_id uuid        NOT NULL,
    destination_id        text        NOT NULL,
    job_id                bigint      NOT NULL,
    attempt               integer     NOT NULL CHECK (attempt >= 1),
    delivered             boolean     NOT NULL,
    url_host              text        NOT NULL,
    status                integer,
    duration_ms           integer     NOT NULL CHECK (duration_ms >= 0),
    answer                text        NOT NULL,
    error                 text,
    attempted_at          timestamptz NOT NULL,
    PRIMARY KEY (org_id, event_id)
);
CREATE INDEX store_deliveries_app_idx ON store_deliveries (org_id, app_id, org_seq DESC);
-- `handoff jobs show` (the owner) lists a job's attempts.
CREATE INDEX store_deliveries_job_idx ON store_deliveries (job_id, attempt);

-- Row-level security as in 0015.
ALTER TABLE store_deliveries ENABLE ROW LEVEL SECURITY;
CREATE POLICY org_scope ON store_deliveries
    USING (strpos(current_setting('handoff.org_id', true), org_id::text) > 0)
    WITH CHECK (strpos(current_setting('handoff.org_id', true), org_id::text) > 0);

-- Grants as in 0014: the new functions to the application role only (0015 took EXECUTE from PUBLIC by default for
-- functions created later; CREATE OR REPLACE keeps the grants of job_mark_done and job_fail); deliveries are
-- inserted and read, never changed; the gap reservation moves.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        GRANT EXECUTE ON FUNCTION job_claim(bigint, uuid, timestamptz, timestamptz) TO handoff_app;
        GRANT EXECUTE ON FUNCTION job_remember(bigint, jsonb) TO handoff_app;
        GRANT EXECUTE ON FUNCTION job_lock_for_outcome(bigint) TO handoff_app;
        GRANT SELECT, INSERT ON store_deliveries TO handoff_app;
        GRANT UPDATE (reserved_by_job, reserved_until) ON recovery_mail_gaps TO handoff_app;
    END IF;
END
$$;
