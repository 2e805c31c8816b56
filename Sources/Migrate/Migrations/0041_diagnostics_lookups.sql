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
