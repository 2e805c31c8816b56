-- Go links and recordings, part 2 (issue 21, docs/app-links.md, docs/recordings.md): an install linked to its click,
-- revocable proxy keys, and the retention of clicks and recordings.

-- The go link whose click token (`x3c`) an install's Play referrer carried, when that click is known in the install's
-- project (`AppInstallRecorded.sources.goLinkId`, folded by `InstallProjection`). The click is `x3c` itself.
ALTER TABLE app_installs ADD COLUMN go_link_id uuid;

-- A proxy key stops working when revoked (`ProxyKeyRevoked`, folded by `LinkProjection`); the row stays for the
-- organization's list.
ALTER TABLE proxy_keys ADD COLUMN revoked_at timestamptz;

-- When a packet last referred to a screenshot (with its bytes or by its hash alone): the retention keeps an asset as
-- long as recent packets use it, since a screenshot is stored once per content for the whole app.
ALTER TABLE recording_assets ADD COLUMN last_used_at timestamptz DEFAULT now();
UPDATE recording_assets SET last_used_at = created_at;
ALTER TABLE recording_assets ALTER COLUMN last_used_at SET NOT NULL;

-- The org of a proxy key, by the SHA-256 (hex) of its text; a revoked key has none.
CREATE OR REPLACE FUNCTION proxy_key_org(p_key_hash text) RETURNS uuid
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_org uuid;
BEGIN
    SELECT k.org_id INTO v_org FROM proxy_keys k WHERE k.key_hash = p_key_hash AND k.revoked_at IS NULL;
    RETURN v_org;
END
$$;

-- Retention of link clicks (worker role `ingest-retention`): deletes every organization's clicks before `p_before`,
-- at most `p_limit` rows per call (the worker calls again while rows go); answers how many went. Deployment-wide,
-- like `ingest_drop_partitions`: the application role cannot see across organizations.
CREATE FUNCTION link_clicks_drop_before(p_before timestamptz, p_limit integer) RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_count bigint;
BEGIN
    DELETE FROM link_clicks WHERE click_token IN (
        SELECT click_token FROM link_clicks WHERE clicked_at < p_before LIMIT greatest(p_limit, 1));
    GET DIAGNOSTICS v_count = ROW_COUNT;
    RETURN v_count;
END
$$;
CREATE INDEX link_clicks_clicked_at_idx ON link_clicks (clicked_at);

-- Retention of recordings: deletes packets received before `p_before` (at most `p_limit` per call), then sessions
-- left without packets that began before it, then screenshots no packet used since; answers how many packets went.
CREATE FUNCTION recordings_drop_before(p_before timestamptz, p_limit integer) RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_count bigint;
BEGIN
    DELETE FROM recording_packets WHERE (app_id, session_id, seq) IN (
        SELECT app_id, session_id, seq FROM recording_packets WHERE received_at < p_before
        LIMIT greatest(p_limit, 1));
    GET DIAGNOSTICS v_count = ROW_COUNT;
    DELETE FROM recording_sessions s WHERE s.created_at < p_before AND NOT EXISTS (
        SELECT 1 FROM recording_packets p WHERE p.app_id = s.app_id AND p.session_id = s.session_id);
    DELETE FROM recording_assets WHERE last_used_at < p_before;
    RETURN v_count;
END
$$;
CREATE INDEX recording_packets_received_at_idx ON recording_packets (received_at);
CREATE INDEX recording_assets_last_used_at_idx ON recording_assets (last_used_at);

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'handoff_app') THEN
        RAISE NOTICE 'role handoff_app does not exist; grant the application role its privileges yourself';
        RETURN;
    END IF;
    GRANT UPDATE (revoked_at) ON proxy_keys TO handoff_app;
    GRANT UPDATE (last_used_at) ON recording_assets TO handoff_app;
    GRANT EXECUTE ON FUNCTION link_clicks_drop_before(timestamptz, integer) TO handoff_app;
    GRANT EXECUTE ON FUNCTION recordings_drop_before(timestamptz, integer) TO handoff_app;
END
$$;
REVOKE ALL ON FUNCTION link_clicks_drop_before(timestamptz, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION recordings_drop_before(timestamptz, integer) FROM PUBLIC;
