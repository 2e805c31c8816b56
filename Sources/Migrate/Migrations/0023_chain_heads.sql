-- Signed chain heads (issue 16 §1, docs/audit.md "Signed chain heads"): the public keys of the deployment's audit
-- key, the heads the `checkpoint` worker role signs, and each organization's auditor URL.

-- Every Ed25519 public key that ever signed a head; a checkpoint registers its key before it signs. Kept after a
-- rotation, so heads signed with an old key keep verifying. `key_id` = first 16 hex digits of SHA-256(public_key).
CREATE TABLE audit_keys (
    key_id        text        PRIMARY KEY CHECK (key_id ~ '^[0-9a-f]{16}$'),
    algorithm     text        NOT NULL CHECK (algorithm = 'ed25519'),
    public_key    bytea       NOT NULL CHECK (length(public_key) = 32),
    first_used_at timestamptz NOT NULL,
    CONSTRAINT audit_keys_public_key_key UNIQUE (public_key)
);

-- One row per signed head: the hash of the org's event at `org_seq` (and that event's recorded_at), when it was
-- signed and by which key, and the Ed25519 signature (64 bytes) of the head's canonical JSON. Append-only like
-- `events`; a head is signed at most once per org_seq.
CREATE TABLE chain_heads (
    org_id      uuid        NOT NULL,
    org_seq     bigint      NOT NULL CHECK (org_seq >= 1),
    hash        bytea       NOT NULL CHECK (length(hash) = 32),
    recorded_at timestamptz NOT NULL,
    signed_at   timestamptz NOT NULL,
    key_id      text        NOT NULL REFERENCES audit_keys (key_id),
    signature   bytea       NOT NULL CHECK (length(signature) = 64),
    CONSTRAINT chain_heads_pkey PRIMARY KEY (org_id, org_seq)
);

-- Where an organization's signed heads are also delivered (`handoff admin org set-auditor-url`); NULL once cleared.
-- Written only by the inline projection `AuditorProjection` from `AuditorURLSet`; rebuilt by `handoff replay`.
CREATE TABLE org_auditors (
    org_id     uuid        PRIMARY KEY,
    url        text        CHECK (length(url) BETWEEN 1 AND 2048),
    updated_at timestamptz NOT NULL
);

-- Append-only, whoever runs the statement (even the owner), as events are (0003).
CREATE FUNCTION audit_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % is refused', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'insufficient_privilege',
              HINT = 'sign a new head instead of changing or removing an old one';
END
$$;
CREATE TRIGGER chain_heads_refuse_update_delete BEFORE UPDATE OR DELETE ON chain_heads
    FOR EACH ROW EXECUTE FUNCTION audit_refuse_change();
CREATE TRIGGER chain_heads_refuse_truncate BEFORE TRUNCATE ON chain_heads
    FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change();
CREATE TRIGGER audit_keys_refuse_update_delete BEFORE UPDATE OR DELETE ON audit_keys
    FOR EACH ROW EXECUTE FUNCTION audit_refuse_change();
CREATE TRIGGER audit_keys_refuse_truncate BEFORE TRUNCATE ON audit_keys
    FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change();

-- Row-level security, as 0015 gives every table with an org_id (`audit_keys` holds public keys of the deployment).
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['chain_heads', 'org_auditors'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY org_scope ON %I '
                       'USING (strpos(current_setting(''handoff.org_id'', true), org_id::text) > 0) '
                       'WITH CHECK (strpos(current_setting(''handoff.org_id'', true), org_id::text) > 0)', t);
    END LOOP;
END
$$;

-- The checkpoint's one look across orgs: up to p_limit orgs whose history moved past their latest signed head (or
-- that have none) and whose latest head was signed at or before p_before — the org ids and nothing else. The worker
-- then signs each in a transaction scoped to that org.
CREATE FUNCTION chain_heads_due(p_before timestamptz, p_limit integer) RETURNS SETOF uuid
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    RETURN QUERY SELECT o.org_id FROM event_orgs o
        LEFT JOIN LATERAL (SELECT h.org_seq, h.signed_at FROM chain_heads h WHERE h.org_id = o.org_id
                           ORDER BY h.org_seq DESC LIMIT 1) h ON true
        WHERE o.last_seq > coalesce(h.org_seq, 0) AND (h.signed_at IS NULL OR h.signed_at <= p_before)
        ORDER BY o.org_id LIMIT p_limit;
END
$$;

-- Privileges of the application role (0014's list, continued): heads and keys are inserted and read, never
-- changed; the auditor URL is set and cleared by its projection.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT SELECT, INSERT ON audit_keys TO handoff_app;
    GRANT SELECT, INSERT ON chain_heads TO handoff_app;
    GRANT SELECT, INSERT, UPDATE (url, updated_at) ON org_auditors TO handoff_app;
    GRANT EXECUTE ON FUNCTION chain_heads_due(timestamptz, integer) TO handoff_app;
END
$$;
REVOKE ALL ON FUNCTION chain_heads_due(timestamptz, integer) FROM PUBLIC;
