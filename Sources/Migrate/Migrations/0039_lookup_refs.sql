-- Lookup references (issue 16 §5, docs/personal-data.md "Lookup references"): events of schema version 2 carry a
-- random reference where version 1 carried a keyed hash (`emailHash`, `ipHash`). This table — not a projection, so
-- `handoff replay` keeps it and the projections resolve references through it — maps a reference to its hash.
-- Erasure deletes the rows, after which the references in the log lead nowhere.
--
-- `ref`: 64 lowercase hex characters of randomness (never derived from the value). An e-mail has one reference per
-- (org, address) (`guid` NULL); an IP address one per (org, buyer, address) (`guid` set), so a buyer's erasure can
-- delete its own without touching another buyer's.
CREATE TABLE lookup_refs (
    org_id     uuid        NOT NULL,
    ref        text        NOT NULL CHECK (ref ~ '^[0-9a-f]{64}$'),
    kind       text        NOT NULL CHECK (kind IN ('email', 'ip')),
    hash       text        NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$'),
    guid       text,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, ref),
    CHECK ((kind = 'email') = (guid IS NULL))
);
CREATE UNIQUE INDEX lookup_refs_value_idx ON lookup_refs (org_id, kind, hash, (coalesce(guid, '')));
CREATE INDEX lookup_refs_guid_idx ON lookup_refs (org_id, guid) WHERE guid IS NOT NULL;

ALTER TABLE lookup_refs ENABLE ROW LEVEL SECURITY;
CREATE POLICY org_scope ON lookup_refs
    USING (strpos(current_setting('handoff.org_id', true), org_id::text) > 0)
    WITH CHECK (strpos(current_setting('handoff.org_id', true), org_id::text) > 0);

-- The application role reads and adds references; only the erasure functions below delete them.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    REVOKE ALL ON lookup_refs FROM handoff_app;
    GRANT SELECT, INSERT ON lookup_refs TO handoff_app;
END
$$;

-- As 0024, and also: the buyer's addresses' references and its IP references are deleted (an address's reference
-- only when no other buyer's row and no app lead of the org still holds the address: those rows, which hold the hash
-- themselves, need it on replay); the recovery subjects `email:<ref>` of those references are destroyed; a recovery subject of schema
-- version 1 (`email:<hash>`) is deleted rather than kept as a tombstone, since nothing is sealed under such an id
-- any more and the id is the hash; recovery-mail jobs lose `emailRef` too.
CREATE OR REPLACE FUNCTION buyer_erase(p_org uuid, p_guid text) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_hashes text[];
    v_refs   text[];
    v_gone   text[];
    v_count  integer := 0;
    v_rows   integer;
BEGIN
    IF strpos(coalesce(current_setting('handoff.org_id', true), ''), p_org::text) = 0 THEN
        RAISE EXCEPTION 'buyer_erase: org is not in the transaction''s scope' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM events e WHERE e.org_id = p_org AND e.stream_id = 'buyer-' || p_guid
                   AND e.event_type = 'BuyerErased') THEN
        RAISE EXCEPTION 'buyer_erase: no BuyerErased event records this erasure'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    SELECT coalesce(array_agg(DISTINCT h), ARRAY[]::text[]) INTO v_hashes FROM (
        SELECT b.email_hash AS h FROM buyer_emails b WHERE b.org_id = p_org AND b.guid = p_guid
        UNION SELECT c.email_hash FROM handoff_codes c
            WHERE c.org_id = p_org AND c.guid = p_guid AND c.email_hash IS NOT NULL) hashes;
    SELECT coalesce(array_agg(r.ref), ARRAY[]::text[]) INTO v_refs FROM lookup_refs r
        WHERE r.org_id = p_org AND r.kind = 'email' AND r.hash = ANY (v_hashes);
    -- The addresses no other buyer of the org holds: their references go.
    SELECT coalesce(array_agg(r.ref), ARRAY[]::text[]) INTO v_gone FROM lookup_refs r
        WHERE r.org_id = p_org AND r.kind = 'email' AND r.hash = ANY (v_hashes)
          AND NOT EXISTS (SELECT 1 FROM buyer_emails b WHERE b.org_id = p_org AND b.email_hash = r.hash
                          AND b.guid <> p_guid)
          AND NOT EXISTS (SELECT 1 FROM handoff_codes c WHERE c.org_id = p_org AND c.email_hash = r.hash
                          AND c.guid <> p_guid)
          AND NOT EXISTS (SELECT 1 FROM app_leads l WHERE l.org_id = p_org AND l.email_hash = r.hash);

    INSERT INTO subject_keys (org_id, subject_id, wrapped_key, destroyed_at)
    SELECT p_org, s.subject, NULL, now()
    FROM unnest(ARRAY[p_guid] || ARRAY(SELECT 'email:' || r FROM unnest(v_refs) r)) AS s(subject)
    ON CONFLICT (org_id, subject_id) DO UPDATE
        SET wrapped_key = NULL, destroyed_at = coalesce(subject_keys.destroyed_at, now());
    DELETE FROM subject_keys WHERE org_id = p_org
        AND subject_id = ANY (ARRAY(SELECT 'email:' || h FROM unnest(v_hashes) h));

    DELETE FROM buyer_emails WHERE org_id = p_org AND guid = p_guid;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    v_count := v_count + v_rows;
    DELETE FROM fingerprints WHERE org_id = p_org AND guid = p_guid;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    v_count := v_count + v_rows;
    DELETE FROM recovery_mail_gaps WHERE org_id = p_org AND email_hash = ANY (v_hashes);
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    v_count := v_count + v_rows;
    UPDATE jobs SET payload = payload - 'email' - 'emailHash' - 'emailRef'
        WHERE org_id = p_org
          AND (payload->>'emailHash' = ANY (v_hashes) OR payload->>'emailRef' = ANY (v_refs));
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    v_count := v_count + v_rows;
    UPDATE handoff_codes SET sealed_code = NULL, email_hash = NULL
        WHERE org_id = p_org AND guid = p_guid AND (sealed_code IS NOT NULL OR email_hash IS NOT NULL);
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    v_count := v_count + v_rows;
    DELETE FROM lookup_refs WHERE org_id = p_org AND (guid = p_guid OR ref = ANY (v_gone));
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    RETURN v_count + v_rows;
END
$$;

-- As 0024, and also: the address's reference is deleted and its recovery subject `email:<ref>` destroyed; a recovery
-- subject of schema version 1 (`email:<hash>`) is deleted; recovery-mail jobs lose `emailRef` too; app leads of the
-- org lose the address's hash (`app_leads.email_hash`) after the personal-data key of each install that sent one is
-- destroyed (`app-install:<install hash>`, which seals the leads' contact: the device that typed the address).
CREATE OR REPLACE FUNCTION email_erase(p_org uuid, p_email_hash text, p_erasure_id uuid) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_refs text[];
    v_rows integer;
BEGIN
    IF strpos(coalesce(current_setting('handoff.org_id', true), ''), p_org::text) = 0 THEN
        RAISE EXCEPTION 'email_erase: org is not in the transaction''s scope' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_email_hash !~ '^[0-9a-f]{64}$' THEN
        RAISE EXCEPTION 'email_erase: not a lookup hash' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM events e WHERE e.org_id = p_org AND e.stream_id = 'erasure-' || p_erasure_id::text
                   AND e.event_type = 'EmailErased') THEN
        RAISE EXCEPTION 'email_erase: no EmailErased event records this erasure'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    SELECT coalesce(array_agg(r.ref), ARRAY[]::text[]) INTO v_refs FROM lookup_refs r
        WHERE r.org_id = p_org AND r.kind = 'email' AND r.hash = p_email_hash;
    INSERT INTO subject_keys (org_id, subject_id, wrapped_key, destroyed_at)
    SELECT p_org, 'email:' || r, NULL, now() FROM unnest(v_refs) r
    ON CONFLICT (org_id, subject_id) DO UPDATE
        SET wrapped_key = NULL, destroyed_at = coalesce(subject_keys.destroyed_at, now());
    DELETE FROM subject_keys WHERE org_id = p_org AND subject_id = 'email:' || p_email_hash;
    UPDATE jobs SET payload = payload - 'email' - 'emailHash' - 'emailRef'
        WHERE org_id = p_org AND (payload->>'emailHash' = p_email_hash OR payload->>'emailRef' = ANY (v_refs));
    DELETE FROM lookup_refs WHERE org_id = p_org AND ref = ANY (v_refs);
    INSERT INTO subject_keys (org_id, subject_id, wrapped_key, destroyed_at)
    SELECT DISTINCT p_org, 'app-install:' || l.install_hash, NULL::bytea, now() FROM app_leads l
        WHERE l.org_id = p_org AND l.email_hash = p_email_hash
    ON CONFLICT (org_id, subject_id) DO UPDATE
        SET wrapped_key = NULL, destroyed_at = coalesce(subject_keys.destroyed_at, now());
    UPDATE app_leads SET email_hash = NULL WHERE org_id = p_org AND email_hash = p_email_hash;
    DELETE FROM recovery_mail_gaps WHERE org_id = p_org AND email_hash = p_email_hash;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    RETURN v_rows;
END
$$;
