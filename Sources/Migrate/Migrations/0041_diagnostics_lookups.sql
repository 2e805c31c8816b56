-- Diagnostics reads (issue 18, docs/diagnostics.md "Cost"): a buyer's timeline finds its events by the names they
-- carry, instead of scanning its organization's log, and the handoff report finds a project's payments by the time
-- they were recorded. Every index on the log is partial: an event that does not carry the name is not in it, so its
-- append pays nothing for it (AppInstallRecorded, app and project settings, store intake, …).
--
-- On a deployment with a large log, build them beforehand with CREATE INDEX CONCURRENTLY under the same names and
-- definitions (a migration runs in one transaction, and a plain CREATE INDEX holds off appends while it builds);
-- IF NOT EXISTS then leaves them as they are.

-- Events that name a buyer (`guid`) or a payment (`paymentId`): nearly every fact of a timeline.
CREATE INDEX IF NOT EXISTS events_guid_idx ON events (org_id, (data->>'guid')) WHERE data ? 'guid';
CREATE INDEX IF NOT EXISTS events_payment_id_idx ON events (org_id, (data->>'paymentId')) WHERE data ? 'paymentId';

-- A store transfer names the buyer a payment left and the one it joined.
CREATE INDEX IF NOT EXISTS events_transfer_from_idx ON events (org_id, (data->>'fromGuid'))
    WHERE event_type = 'PaymentTransferred';
CREATE INDEX IF NOT EXISTS events_transfer_to_idx ON events (org_id, (data->>'toGuid'))
    WHERE event_type = 'PaymentTransferred';

-- A skipped recovery mail names the buyers that hold its address (an array).
CREATE INDEX IF NOT EXISTS events_recovery_skip_guids_idx ON events USING gin ((data->'guids') jsonb_path_ops)
    WHERE event_type = 'RecoveryMailSkipped';

-- A recovery request names its address by lookup reference (version 2) or keyed hash (version 1), never both.
CREATE INDEX IF NOT EXISTS events_recovery_email_idx
    ON events (org_id, (coalesce(data->>'emailRef', data->>'emailHash')))
    WHERE event_type = 'EmailRecoveryRequested';

-- The handoff report reads one project's payments in a range of recorded_at, oldest first.
CREATE INDEX IF NOT EXISTS payments_project_recorded_idx ON payments (org_id, project_id, recorded_at);

-- The positions (org_seq) of one buyer's events in one org, oldest first, at most p_limit: the events that name the
-- guid (`guid`, a transfer's `fromGuid`/`toGuid`, a skipped mail's `guids`), one of its payments (`paymentId`), or
-- one of its addresses (a recovery request's `emailRef` / `emailHash`) — one branch per index above.
-- SECURITY DEFINER because row-level security keeps non-leakproof expressions (`->>`, `?`, `@>`) of a query out of
-- its index conditions (they may not run before the policy): under the policy each branch read the org's whole log.
-- It answers only for an org in the caller's scope (the policy's own test of `handoff.org_id`) and only positions;
-- the caller reads the events themselves under its scope (`BuyerTimelines`).
CREATE FUNCTION buyer_event_seqs(p_org uuid, p_guid text, p_limit integer) RETURNS TABLE (seq bigint)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp ROWS 50 AS $$
BEGIN
    IF coalesce(strpos(current_setting('handoff.org_id', true), p_org::text), 0) = 0 THEN
        RETURN;
    END IF;
    RETURN QUERY
    SELECT s.org_seq FROM (
        SELECT e.org_seq FROM events e WHERE e.org_id = p_org AND e.data ? 'guid' AND e.data->>'guid' = p_guid
        UNION
        SELECT e.org_seq FROM events e
        WHERE e.org_id = p_org AND e.data ? 'paymentId' AND e.data->>'paymentId' IN (
            SELECT p.payment_id FROM payments p WHERE p.org_id = p_org AND p.guid = p_guid)
        UNION
        SELECT e.org_seq FROM events e
        WHERE e.org_id = p_org AND e.event_type = 'PaymentTransferred'
            AND (e.data->>'fromGuid' = p_guid OR e.data->>'toGuid' = p_guid)
        UNION
        SELECT e.org_seq FROM events e
        WHERE e.org_id = p_org AND e.event_type = 'RecoveryMailSkipped'
            AND e.data->'guids' @> jsonb_build_array(p_guid)
        UNION
        SELECT e.org_seq FROM events e
        WHERE e.org_id = p_org AND e.event_type = 'EmailRecoveryRequested'
            AND coalesce(e.data->>'emailRef', e.data->>'emailHash') IN (
                SELECT b.email_hash FROM buyer_emails b WHERE b.org_id = p_org AND b.guid = p_guid
                UNION ALL
                SELECT r.ref FROM buyer_emails b JOIN lookup_refs r ON r.org_id = b.org_id AND r.kind = 'email'
                    AND r.hash = b.email_hash
                WHERE b.org_id = p_org AND b.guid = p_guid)
    ) AS s ORDER BY s.org_seq LIMIT p_limit;
END
$$;

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT EXECUTE ON FUNCTION buyer_event_seqs(uuid, text, integer) TO handoff_app;
END
$$;
REVOKE ALL ON FUNCTION buyer_event_seqs(uuid, text, integer) FROM PUBLIC;
