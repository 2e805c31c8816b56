-- The event log (DESIGN.md §3, docs/event-store.md): append-only events with a per-org gapless sequence and
-- hash chain, the per-org counter row that append locks, and the checkpoints of named subscriptions.

-- One row per organization that has events: the last org_seq handed out and the hash of that event.
-- Append locks this row as late as possible; its update commits or rolls back with the events, so no hole.
CREATE TABLE event_orgs (
    org_id    uuid PRIMARY KEY,
    last_seq  bigint NOT NULL CHECK (last_seq >= 0),
    last_hash bytea  NOT NULL CHECK (length(last_hash) = 32)
);

CREATE TABLE events (
    org_id         uuid        NOT NULL,
    org_seq        bigint      NOT NULL CHECK (org_seq >= 1),
    global_pos     bigint      GENERATED ALWAYS AS IDENTITY,
    tx_id          xid8        NOT NULL DEFAULT pg_current_xact_id(),
    stream_id      text        NOT NULL CHECK (stream_id <> ''),
    stream_version bigint      NOT NULL CHECK (stream_version >= 1),
    event_id       uuid        NOT NULL,
    event_type     text        NOT NULL CHECK (event_type <> ''),
    schema_version integer     NOT NULL CHECK (schema_version >= 1),
    data           jsonb       NOT NULL,
    metadata       jsonb       NOT NULL,
    recorded_at    timestamptz NOT NULL,
    prev_hash      bytea       NOT NULL CHECK (length(prev_hash) = 32),
    hash           bytea       NOT NULL CHECK (length(hash) = 32),
    CONSTRAINT events_pkey PRIMARY KEY (org_id, org_seq),
    CONSTRAINT events_event_id_key UNIQUE (event_id),
    CONSTRAINT events_stream_version_key UNIQUE (org_id, stream_id, stream_version)
);

-- Cross-org consumers read in (tx_id, global_pos) order behind the xid horizon.
CREATE INDEX events_tx_id_global_pos_idx ON events (tx_id, global_pos);

-- Immutability: whoever runs the statement (even the owner), UPDATE, DELETE and TRUNCATE are refused.
CREATE FUNCTION events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the event log is append-only: % on events is refused', TG_OP
        USING ERRCODE = 'insufficient_privilege',
              HINT = 'record a new event instead of changing or removing an old one';
END
$$;

CREATE TRIGGER events_refuse_update_delete BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_refuse_change();
CREATE TRIGGER events_refuse_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_refuse_change();

-- Checkpoints of named subscriptions: the last (tx_id, global_pos) a consumer has processed.
CREATE TABLE event_subscriptions (
    name       text        PRIMARY KEY,
    tx_id      xid8        NOT NULL DEFAULT '0',
    global_pos bigint      NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- 0002 granted handoff_app SELECT, INSERT, UPDATE, DELETE on new tables. The log keeps INSERT and SELECT only;
-- counter rows are inserted and updated but never deleted.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        EXECUTE 'REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON events FROM handoff_app';
        EXECUTE 'GRANT SELECT, INSERT ON events TO handoff_app';
        EXECUTE 'REVOKE DELETE, TRUNCATE, REFERENCES, TRIGGER ON event_orgs FROM handoff_app';
        EXECUTE 'GRANT SELECT, INSERT, UPDATE ON event_orgs TO handoff_app';
        EXECUTE 'GRANT SELECT, INSERT, UPDATE ON event_subscriptions TO handoff_app';
    END IF;
END
$$;
