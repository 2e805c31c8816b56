-- Erasure of a buyer (issue 16 §5, docs/personal-data.md "Erasure"): destroy the buyer's data keys and remove every
-- lookup row derived from their personal data, in the transaction that appends the audit event.
--
-- The application role still has neither UPDATE nor DELETE on `subject_keys` (0014), nor DELETE on the lookup
-- tables: an erasure goes through the two functions below, owned by the owner, which can only destroy and delete,
-- only inside the caller's org scope, and only when the caller's transaction holds the event that records it
-- (`BuyerErased` on the buyer's stream, `EmailErased` on the erasure's stream) — an erasure is never unaudited, and
-- nothing the role can call brings a destroyed key or a deleted row back.

-- A code's sealed copy (for re-display of a repeated payment) is removed with its buyer's data; the code row (its
-- keyed hash, which is a hash of a random code, not of personal data) stays, so a code hash is still never handed
-- out twice.
ALTER TABLE handoff_codes ALTER COLUMN sealed_code DROP NOT NULL;

-- Erases the buyer `p_guid` of `p_org`: destroys the data key of the guid and of each of its addresses' recovery
-- subjects (`email:<hash>`), deletes its e-mail hashes, its fingerprints and its addresses' recovery gaps, and
-- removes its codes' sealed copies and e-mail hashes and its addresses' recovery-mail jobs' sealed address and hash.
-- Repeats change nothing more. Returns the number of lookup rows deleted or cleared.
CREATE FUNCTION buyer_erase(p_org uuid, p_guid text) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_hashes text[];
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

    INSERT INTO subject_keys (org_id, subject_id, wrapped_key, destroyed_at)
    SELECT p_org, s.subject, NULL, now()
    FROM unnest(ARRAY[p_guid] || ARRAY(SELECT 'email:' || h FROM unnest(v_hashes) h)) AS s(subject)
    ON CONFLICT (org_id, subject_id) DO UPDATE
        SET wrapped_key = NULL, destroyed_at = coalesce(subject_keys.destroyed_at, now());

    DELETE FROM buyer_emails WHERE org_id = p_org AND guid = p_guid;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    v_count := v_count + v_rows;
    DELETE FROM fingerprints WHERE org_id = p_org AND guid = p_guid;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    v_count := v_count + v_rows;
    DELETE FROM recovery_mail_gaps WHERE org_id = p_org AND email_hash = ANY (v_hashes);
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    v_count := v_count + v_rows;
    -- Recovery-mail jobs of the addresses lose the sealed address and its hash (one still queued then goes dead as
    -- malformed: no mail for an erased address).
    UPDATE jobs SET payload = payload - 'email' - 'emailHash'
        WHERE org_id = p_org AND payload->>'emailHash' = ANY (v_hashes);
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    v_count := v_count + v_rows;
    UPDATE handoff_codes SET sealed_code = NULL, email_hash = NULL
        WHERE org_id = p_org AND guid = p_guid AND (sealed_code IS NOT NULL OR email_hash IS NOT NULL);
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    RETURN v_count + v_rows;
END
$$;

-- Erases what an address left without a buyer: the recovery requests' data key (`email:<hash>`), the address's
-- recovery gap and its recovery-mail jobs' sealed address and hash in `p_org`. The buyers holding the address are
-- erased one by one with `buyer_erase`.
CREATE FUNCTION email_erase(p_org uuid, p_email_hash text, p_erasure_id uuid) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
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
    INSERT INTO subject_keys (org_id, subject_id, wrapped_key, destroyed_at)
    VALUES (p_org, 'email:' || p_email_hash, NULL, now())
    ON CONFLICT (org_id, subject_id) DO UPDATE
        SET wrapped_key = NULL, destroyed_at = coalesce(subject_keys.destroyed_at, now());
    UPDATE jobs SET payload = payload - 'email' - 'emailHash'
        WHERE org_id = p_org AND payload->>'emailHash' = p_email_hash;
    DELETE FROM recovery_mail_gaps WHERE org_id = p_org AND email_hash = p_email_hash;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    RETURN v_rows;
END
$$;

-- For the application role only (0015 took EXECUTE from PUBLIC for functions created from then on).
REVOKE ALL ON FUNCTION buyer_erase(uuid, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION email_erase(uuid, text, uuid) FROM PUBLIC;
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT EXECUTE ON FUNCTION buyer_erase(uuid, text) TO handoff_app;
    GRANT EXECUTE ON FUNCTION email_erase(uuid, text, uuid) TO handoff_app;
END
$$;
