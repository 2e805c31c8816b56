-- Session recordings of apps (issue 21, docs/recordings.md): the packets `POST /v1/m/r` stores, the session each
-- belongs to (with the hash of the secret its first packet fixed) and the screenshots, kept once per content hash.
-- Not events of the hash-chained log: recordings are ingest, orders of magnitude busier than purchases.

-- One row per recorded app session: the first packet fixes the session's secret (kept as its SHA-256 only); a later
-- packet with another secret is refused (403 `secret`), so knowing a session id is not enough to add to it.
CREATE TABLE recording_sessions (
    org_id       uuid        NOT NULL,
    project_id   uuid        NOT NULL,
    app_id       uuid        NOT NULL,
    session_id   text        COLLATE "C" NOT NULL CHECK (length(session_id) BETWEEN 1 AND 64),
    install_hash text        NOT NULL CHECK (install_hash ~ '^[0-9a-f]{64}$'),
    secret_hash  text        NOT NULL CHECK (secret_hash ~ '^[0-9a-f]{64}$'),
    platform     text        NOT NULL CHECK (platform IN ('ios', 'android')),
    created_at   timestamptz NOT NULL,
    PRIMARY KEY (app_id, session_id)
);

-- One row per packet, `seq` counting a session's packets from 0 (a re-sent packet is 403 `duplicate`). `events` is
-- the inflated NDJSON of rrweb events, screenshots' bytes taken out (kept in `recording_assets` or dropped). Its session
-- row is written in the same transaction (`RecordingStore.write`); no foreign key, like the other ingest tables.
CREATE TABLE recording_packets (
    org_id       uuid        NOT NULL,
    app_id       uuid        NOT NULL,
    session_id   text        COLLATE "C" NOT NULL CHECK (length(session_id) BETWEEN 1 AND 64),
    seq          integer     NOT NULL CHECK (seq >= 0),
    screen       text        CHECK (length(screen) <= 256),
    started_at   timestamptz NOT NULL,
    ended_at     timestamptz NOT NULL,
    event_count  integer     NOT NULL CHECK (event_count >= 1),
    events       bytea       NOT NULL,
    received_at  timestamptz NOT NULL,
    PRIMARY KEY (app_id, session_id, seq)
);

-- Screenshots by content (SHA-256 of the image bytes), once per app: a second packet with the same image stores
-- nothing new.
CREATE TABLE recording_assets (
    org_id       uuid        NOT NULL,
    app_id       uuid        NOT NULL,
    sha256       text        NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    mime         text        NOT NULL CHECK (mime IN ('image/png', 'image/jpeg', 'image/webp')),
    bytes        bytea       NOT NULL,
    created_at   timestamptz NOT NULL,
    PRIMARY KEY (app_id, sha256)
);

DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['recording_sessions', 'recording_packets', 'recording_assets'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY org_scope ON %I '
                       'USING (strpos(current_setting(''handoff.org_id'', true), org_id::text) > 0) '
                       'WITH CHECK (strpos(current_setting(''handoff.org_id'', true), org_id::text) > 0)', t);
    END LOOP;
END
$$;

-- The application role inserts and reads; nothing moves. A device erasure (`POST /v1/m/erase`) deletes an install's
-- sessions and packets (`RecordingStore.erase`); screenshots are shared by content, so they stay.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT SELECT, INSERT, DELETE ON recording_sessions TO handoff_app;
    GRANT SELECT, INSERT, DELETE ON recording_packets TO handoff_app;
    GRANT SELECT, INSERT ON recording_assets TO handoff_app;
END
$$;
